/**
 * Pure notification helpers shared by the server, the /notifications page and the header bell
 * (PRODUCT.md §3 Notification, §9): the types, the list query (page 1, size 50, max 100), the unread
 * badge capped at '99+', and the short relative time ('Agora', 'Nm', 'Nh', 'Nd' under 7 days, then
 * dd/mm in the user's timezone). No I/O: safe on server and client, unit-tested.
 */
import { z } from "zod";
import { msg, type Msg } from "../../core/i18n/message";
import type { DrawdownStop } from "../../core/risk/drawdown";
import { resolveTimezone } from "../../core/risk/trading-day";
import { relativeTime } from "./format";

/** Every notification type (PRODUCT.md §3). */
export const NOTIFICATION_TYPES = ["success", "warning", "error", "limit", "trading", "info"] as const;
export type NotificationTypeName = (typeof NOTIFICATION_TYPES)[number];

/** The type chips of the page, in order (PRODUCT.md §2 Notifications); 'all' = no type filter. */
export const TYPE_CHIPS = ["all", "success", "warning", "error", "limit", "trading"] as const;
export type TypeChip = (typeof TYPE_CHIPS)[number];

/** Page size and its cap (PRODUCT.md §9). */
export const NOTIFICATIONS_PAGE_SIZE = 50;
export const NOTIFICATIONS_MAX_LIMIT = 100;
/** Polling interval (PRODUCT.md §9) and the unread badge: app/lib/unread-badge.ts (zod-free, for the bell on every page). */
export { formatUnreadBadge, NOTIFICATIONS_POLL_MS } from "./unread-badge";
/** Longest search text accepted. */
export const SEARCH_MAX_LENGTH = 100;

/** A notification as the API and the page see it (PRODUCT.md §3). */
export interface NotificationView {
  _id: string;
  id: string;
  type: NotificationTypeName;
  title: string;
  message: string;
  read: boolean;
  createdAt: string;
  metadata: Record<string, unknown>;
}

const blankToUndefined = (v: unknown) => (v === null || v === "" ? undefined : v);

/** Query of GET /api/notifications (and the page): page, limit, type, plus optional unread and search. */
export const listQuerySchema = z.object({
  page: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: "page deve ser um número inteiro maior ou igual a 1." })
      .int({ error: "page deve ser um número inteiro maior ou igual a 1." })
      .min(1, { error: "page deve ser um número inteiro maior ou igual a 1." })
      .max(1_000_000, { error: "page deve ser um número inteiro maior ou igual a 1." })
      .default(1),
  ),
  limit: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: `limit deve ser um número inteiro entre 1 e ${NOTIFICATIONS_MAX_LIMIT}.` })
      .int({ error: `limit deve ser um número inteiro entre 1 e ${NOTIFICATIONS_MAX_LIMIT}.` })
      .min(1, { error: `limit deve ser um número inteiro entre 1 e ${NOTIFICATIONS_MAX_LIMIT}.` })
      .max(NOTIFICATIONS_MAX_LIMIT, { error: `limit deve ser um número inteiro entre 1 e ${NOTIFICATIONS_MAX_LIMIT}.` })
      .default(NOTIFICATIONS_PAGE_SIZE),
  ),
  type: z.preprocess(
    (v) => (v === "all" ? undefined : blankToUndefined(v)),
    z.enum(NOTIFICATION_TYPES, { error: `type deve ser um de: ${NOTIFICATION_TYPES.join(", ")}.` }).optional(),
  ),
  unread: z.preprocess(
    blankToUndefined,
    z
      .enum(["1", "0", "true", "false"], { error: "unread deve ser true ou false." })
      .optional()
      .transform((v) => v === "1" || v === "true"),
  ),
  q: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() || undefined : v),
    z.string().max(SEARCH_MAX_LENGTH, { error: `A busca deve ter no máximo ${SEARCH_MAX_LENGTH} caracteres.` }).optional(),
  ),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** The translatable message of a rejected list-query parameter (its Portuguese text is the schema's). */
function queryErrorMsg(field: unknown): Msg {
  switch (field) {
    case "page":
      return msg("notices:query.page");
    case "limit":
      return msg("notices:query.limit", { max: NOTIFICATIONS_MAX_LIMIT });
    case "type":
      return msg("notices:query.type", { types: NOTIFICATION_TYPES.join(", ") });
    case "unread":
      return msg("notices:query.unread");
    case "q":
      return msg("notices:query.q", { max: SEARCH_MAX_LENGTH });
    default:
      return msg("notices:query.invalid");
  }
}

/**
 * Parses URL search params into a list query, or the first error: `message` in Portuguese, `msg`
 * the same as a translatable message (ADR 0007).
 */
export function parseListQuery(params: URLSearchParams): { ok: true; query: ListQuery } | { ok: false; message: string; msg: Msg } {
  const raw: Record<string, string> = {};
  for (const key of ["page", "limit", "type", "unread", "q"] as const) {
    const v = params.get(key);
    if (v !== null) raw[key] = v;
  }
  const parsed = listQuerySchema.safeParse(raw);
  if (parsed.success) return { ok: true, query: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, message: issue?.message ?? "Parâmetros inválidos.", msg: queryErrorMsg(issue?.path[0]) };
}

/**
 * Short relative time (PRODUCT.md §9): under a minute 'Agora' (or `nowLabel`), then 'Nm', 'Nh',
 * 'Nd' under 7 days, then 'dd/mm' in `timeZone`. A time in the future counts as now; '—' when unknown.
 */
export function notificationTime(
  when: string | number | Date | null | undefined,
  now: number | Date,
  timeZone = "America/Sao_Paulo",
  nowLabel = "Agora",
): string {
  return relativeTime(when, now, { justNow: nowLabel, timeZone: resolveTimezone(timeZone) });
}

/** Query string for the page with some keys changed (empty/undefined values dropped; page reset unless given). */
export function pageQuery(current: URLSearchParams, changes: Record<string, string | undefined>): string {
  const next = new URLSearchParams(current);
  if (!("page" in changes)) next.delete("page");
  next.delete("confirm");
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v === "" || (k === "type" && v === "all")) next.delete(k);
    else next.set(k, v);
  }
  const s = next.toString();
  return s ? `?${s}` : "";
}

// ---------------------------------------------------------------------------------------------
// The texts of the notifications the product creates, as translatable messages of the `notices`
// namespace (ADR 0007): stored with their Portuguese text, shown in the reader's language.
// ---------------------------------------------------------------------------------------------

/** Title and message of a notification; a plain string is a ready text (not translatable). */
export interface NoticeText {
  title: Msg | string;
  message: Msg | string;
}

/** 'EUR_USD' → 'EUR/USD'. */
const pair = (instrument: string | undefined) => instrument?.replace("_", "/") ?? "";
const sideMsg = (side: string) => msg(side === "buy" ? "notices:side.buy" : "notices:side.sell");

/** Why a trade closed, from the broker's fill reason (none for other reasons). */
const CLOSE_WHY: Record<string, string> = {
  STOP_LOSS_ORDER: "notices:tradeClosed.why.stopLoss",
  TAKE_PROFIT_ORDER: "notices:tradeClosed.why.takeProfit",
  TRAILING_STOP_LOSS_ORDER: "notices:tradeClosed.why.trailingStop",
  MARKET_ORDER_TRADE_CLOSE: "notices:tradeClosed.why.manual",
};

export const notices = {
  /**
   * 'Trade aberto' — 'Compra EUR/USD · 0,10 lote(s) a 1,08500' (issue 22: the lots with 2 decimals and
   * the broker's price with its own decimals, in the reader's notation: en '0.10 lot(s) at 1.08500').
   */
  tradeOpened(p: { side: string; instrument: string | undefined; lots: number | string; price: string }): NoticeText {
    return {
      title: msg("notices:tradeOpened.title"),
      message: msg("notices:tradeOpened.message", { side: sideMsg(p.side), instrument: pair(p.instrument), lots: Number(p.lots), price: p.price }),
    };
  },
  /**
   * 'Trade fechado com lucro|prejuízo|no zero a zero' — 'Venda EUR/USD fechada por stop loss: P&L -12,30 USD'
   * (the P&L signed, 2 decimals, in the reader's notation; issue 22).
   */
  tradeClosed(p: { result: "WIN" | "LOSS" | "BE"; side: string; instrument: string; closeReason?: string | null; pl: number; currency?: string | null }): NoticeText {
    const title = p.result === "WIN" ? "titleWin" : p.result === "LOSS" ? "titleLoss" : "titleBreakEven";
    const why = CLOSE_WHY[p.closeReason ?? ""];
    const amount = p.currency ? msg("notices:tradeClosed.amount", { pl: p.pl, currency: p.currency }) : msg("notices:tradeClosed.amountBare", { pl: p.pl });
    const params = { side: sideMsg(p.side), instrument: pair(p.instrument), amount };
    return {
      title: msg(`notices:tradeClosed.${title}`),
      message: why ? msg("notices:tradeClosed.messageBy", { ...params, why: msg(why) }) : msg("notices:tradeClosed.message", params),
    };
  },
  /** 'IA mudou o timeframe' — 'EUR/USD: M15 → H1. <regime reason>'. */
  timeframeChanged(p: { instrument: string; from: string; to: string; reason: Msg | string }): NoticeText {
    return {
      title: msg("notices:timeframeChanged.title"),
      message: msg("notices:timeframeChanged.message", { instrument: pair(p.instrument), from: p.from, to: p.to, reason: p.reason }),
    };
  },
  /** 'IA desativada' — '<stop reason>. <detail>', or the detail alone when the reason has no label. */
  botStopped(reason: Msg | null, detail: Msg | string): NoticeText {
    return { title: msg("notices:botStopped.title"), message: reason ? msg("notices:botStopped.message", { reason, detail }) : detail };
  },
  /**
   * 'IA parada: drawdown máximo' (issue 21) — the drawdown (%, amount), the limit, the high-water mark
   * and the NAV, then the trades closed since the mark (the first `listed` by name with their P&L,
   * "mais N" for the rest, and their total), and that the AI waits for the re-arm.
   */
  drawdownStop(stop: DrawdownStop, listed = 10): NoticeText {
    const currency = stop.currency;
    const items = stop.trades.slice(0, listed).map((t) => msg("notices:drawdownStop.trade", { instrument: pair(t.instrument), pl: t.pl, currency }));
    if (stop.trades.length > listed) items.push(msg("notices:drawdownStop.andMore", { count: stop.trades.length - listed }));
    const list = items.reduceRight<Msg | null>((rest, item) => (rest ? msg("notices:drawdownStop.listMore", { item, rest }) : item), null);
    const trades = list
      ? msg("notices:drawdownStop.trades", { count: stop.trades.length, total: stop.tradesPl, currency, list })
      : msg("notices:drawdownStop.noTrades");
    return {
      title: msg("notices:drawdownStop.title"),
      message: msg("notices:drawdownStop.message", {
        drawdown: stop.drawdownPct,
        amount: stop.drawdownAmount,
        currency,
        limit: stop.limitPct,
        peak: stop.highWaterMark,
        nav: stop.nav,
        trades,
      }),
    };
  },
  /** 'Conexão com a Oanda perdida' — the broker's error. */
  connectionLost(detail: Msg | string): NoticeText {
    return { title: msg("notices:connectionLost.title"), message: detail };
  },
  /** 'Conexão restabelecida'. */
  connectionRestored(): NoticeText {
    return { title: msg("notices:connectionRestored.title"), message: msg("notices:connectionRestored.message") };
  },
  /** 'Conta Oanda conectada' — 'Conta <alias> (real|demo) conectada.'. */
  brokerConnected(account: string, environment: string): NoticeText {
    return {
      title: msg("notices:brokerConnected.title"),
      message: msg("notices:brokerConnected.message", { account, environment: msg(environment === "live" ? "notices:brokerConnected.environment.live" : "notices:brokerConnected.environment.practice") }),
    };
  },
  /** The test notification. */
  test(): NoticeText {
    return { title: msg("notices:test.title"), message: msg("notices:test.message") };
  },
};

/**
 * Pure trading-view logic: dashboard statistics (win rate, profit factor = gross profit / gross loss
 * with the payoff ratio = average win / average loss beside it — ADR 0008 — computed by `core/stats`,
 * P&L today by the user's local day), the live-price chip colour (§4), the hero
 * gating (§4: offline → manage-only → no licence → no broker → ready) and the label keys (i18n namespaces
 * `hero` and `common`) of hero states, licences, subscriptions and stop reasons.
 */
import { Decimal } from "../../core/decimal";
import { knownTimezone, tradingDay, type TradingDayBoundary } from "../../core/risk/trading-day";
import { computeTradeStats, type StatsTrade } from "../../core/stats";
import { toNumber } from "./format";

/** A closed trade as far as the statistics need it. */
export interface ClosedTradeLike {
  pnl?: string | number | null;
  closeTime?: string | null;
}

/** Summary statistics of closed trades. */
export interface TradeStats {
  total: number;
  winners: number;
  losers: number;
  pnlTotal: number;
  /** Percent (0–100, 1 decimal), null without trades. */
  winRate: number | null;
  /** Gross profit / gross loss (2 decimals); null without losses. Below 1 exactly when the trades lose money. */
  profitFactor: number | null;
  /** Payoff ratio: average win / average loss (2 decimals; PRODUCT.md §9's "profit factor"); null without wins or losses. */
  payoffRatio: number | null;
  pnlToday: number;
}

/**
 * The 'P&L hoje' window: the trading day containing `now` (core/risk/trading-day.ts `tradingDay`, the rule
 * of the daily limits): local midnight to the next in the time zone (preferences.timezone; the runtime
 * zone when none or an unknown one is given), or 17:00 to 17:00 New York with `boundary` "ny_close".
 */
export function localDayBounds(now: Date, timeZone?: string, boundary?: TradingDayBoundary): [Date, Date] {
  const tz = knownTimezone(timeZone) ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const day = tradingDay(now, tz, boundary);
  return [day.start, day.end];
}

/**
 * Statistics over closed trades (`core/stats`); `now`, `timeZone` and `boundary` (settings.tradingDayBoundary)
 * decide the trading day of 'P&L hoje'.
 */
export function tradeStats(trades: ClosedTradeLike[], now: Date = new Date(), timeZone?: string, boundary?: TradingDayBoundary): TradeStats {
  const [dayStart, dayEnd] = localDayBounds(now, timeZone, boundary);
  const all: StatsTrade[] = [];
  const today: StatsTrade[] = [];
  for (const t of trades) {
    const row = statsTrade(t);
    all.push(row);
    if (t.closeTime && row.closeTime >= dayStart.getTime() && row.closeTime < dayEnd.getTime()) today.push(row);
  }
  const s = computeTradeStats(all);
  return {
    total: s.trades,
    winners: s.wins,
    losers: s.losses,
    pnlTotal: money2(s.netPnl),
    winRate: statNumber(s.winRatePct),
    profitFactor: statNumber(s.profitFactor),
    payoffRatio: statNumber(s.payoffRatio),
    pnlToday: money2(computeTradeStats(today).netPnl),
  };
}

/**
 * A closed trade as `core/stats` takes it: the P&L as a decimal string (decimal strings as they are,
 * numbers as written, unknown as 0) and the close time in UTC ms (unknown as 0: the screens read only
 * counts and sums, which do not depend on it).
 */
export function statsTrade(t: ClosedTradeLike): StatsTrade & { closeTime: number } {
  const closed = t.closeTime ? Date.parse(t.closeTime) : NaN;
  return { pnl: pnlString(t.pnl), closeTime: Number.isFinite(closed) ? closed : 0 };
}

function pnlString(value: string | number | null | undefined): string {
  const n = toNumber(value);
  if (n === null) return "0";
  const text = typeof value === "string" ? value.trim() : "";
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(text) ? text : String(n);
}

/** An account amount of `core/stats` as a number with 2 decimals (rounded half up), for display. */
export function money2(amount: string): number {
  return Number(new Decimal(amount).toFixed(2));
}

/** A ratio or percentage of `core/stats` (decimal string or null) as a number for display. */
export function statNumber(value: string | null): number | null {
  return value === null ? null : Number(value);
}

/** Colour of the live price chip: favourable vs entry (buy above, sell below) green, else red; unknown grey. */
export function priceTrend(side: string, openPrice: unknown, currentPrice: unknown): "up" | "down" | "unknown" {
  const open = toNumber(openPrice);
  const cur = toNumber(currentPrice);
  if (open === null || cur === null || cur === open) return "unknown";
  const favourable = side === "sell" ? cur < open : cur > open;
  return favourable ? "up" : "down";
}

/** The win/loss card (PRODUCT.md §9): whichever of wins and losses is larger (wins on a tie). */
export function winLossCard(stats: Pick<TradeStats, "winners" | "losers">): { kind: "wins" | "losses"; count: number } {
  return stats.losers > stats.winners ? { kind: "losses", count: stats.losers } : { kind: "wins", count: stats.winners };
}

/**
 * Hero gating states, in order (PRODUCT.md §4), plus manage-only (issue 9): the AI is on but its
 * licence lapsed, so it only manages the open trades.
 */
export type HeroState = "offline" | "manage-only" | "no-licence" | "no-broker" | "paused" | "active";

type HeroStateKey = "offline" | "manageOnly" | "noLicence" | "noBroker" | "paused" | "active";

/** Display of one hero state as i18n keys of the `hero` namespace, plus its colour (PRODUCT.md §4). */
export interface HeroView {
  state: HeroState;
  /** Badge: Online, Offline, Conectar Oanda, Sem Licença, Somente gestão. */
  badgeKey: "badge.online" | "badge.offline" | "badge.connect" | "badge.noLicence" | "badge.manageOnly";
  titleKey: `state.${HeroStateKey}.title`;
  /** The sub-message; manage-only says why, or that entries resume on the next cycle once the licence is back. */
  messageKey: `state.${HeroStateKey}.message` | "state.manageOnly.resuming";
  tone: "grey" | "amber" | "orange" | "red" | "green";
  /** Button: ASSINAR, CONECTAR OANDA, ATIVAR IA, DESATIVAR IA. */
  buttonKey: "button.subscribe" | "button.connect" | "button.activate" | "button.deactivate";
}

/**
 * Decides the hero state: offline → manage-only → no licence → no broker → ready (paused / active).
 * Manage-only is an AI that is on while the bot reports manage-only (`manageOnly`, the loop status)
 * or the user has no licence (the next tick enters it); its button turns the AI off. With the
 * licence back while the bot still reports manage-only, the message says entries resume next cycle.
 */
export function heroView(input: { online: boolean; hasLicense: boolean; brokerConnected: boolean; botActive: boolean; manageOnly?: boolean }): HeroView {
  const view = (state: HeroState, key: HeroStateKey, badgeKey: HeroView["badgeKey"], tone: HeroView["tone"], buttonKey: HeroView["buttonKey"]): HeroView => ({
    state,
    badgeKey,
    titleKey: `state.${key}.title`,
    messageKey: `state.${key}.message`,
    tone,
    buttonKey,
  });
  if (!input.online) return view("offline", "offline", "badge.offline", "grey", input.botActive ? "button.deactivate" : "button.activate");
  if (input.botActive && (input.manageOnly || !input.hasLicense)) {
    const v = view("manage-only", "manageOnly", "badge.manageOnly", "amber", "button.deactivate");
    return input.hasLicense ? { ...v, messageKey: "state.manageOnly.resuming" } : v;
  }
  if (!input.hasLicense) return view("no-licence", "noLicence", "badge.noLicence", "amber", "button.subscribe");
  if (!input.brokerConnected) return view("no-broker", "noBroker", "badge.connect", "orange", "button.connect");
  if (input.botActive) return view("active", "active", "badge.online", "green", "button.deactivate");
  return view("paused", "paused", "badge.online", "red", "button.activate");
}

/** Licence display (PRODUCT.md §4 Licence display): `common` key and tone. */
export function licenceLabel(status: string | null | undefined): { key: `licence.${"valid" | "expired" | "pending" | "admin" | "none"}`; tone: "green" | "red" | "amber" | "blue" | "grey" } {
  switch (status) {
    case "valid":
      return { key: "licence.valid", tone: "green" };
    case "expired":
      return { key: "licence.expired", tone: "red" };
    case "pending":
      return { key: "licence.pending", tone: "amber" };
    case "admin":
      return { key: "licence.admin", tone: "blue" };
    default:
      return { key: "licence.none", tone: "grey" };
  }
}

/** Subscription status display key in `common` (PRODUCT.md §4): active 'Ativa', past_due 'Pagamento Pendente', canceled 'Cancelada', else 'Inativa'. */
export function subscriptionLabel(status: string | null | undefined): `subscription.${"active" | "past_due" | "canceled" | "inactive"}` {
  if (status === "active" || status === "trialing") return "subscription.active";
  if (status === "past_due") return "subscription.past_due";
  if (status === "canceled") return "subscription.canceled";
  return "subscription.inactive";
}

const STOP_REASONS = ["manual", "max_consecutive_losses", "daily_loss_limit", "max_drawdown", "trading_hours", "server_shutdown"] as const;

/** Stop reason key in `common` (PRODUCT.md §4 AI loop): known reasons, else 'Inativo'. */
export function stopReasonKey(reason: string | null | undefined): `stopReason.${(typeof STOP_REASONS)[number] | "other"}` {
  return STOP_REASONS.includes(reason as (typeof STOP_REASONS)[number]) ? `stopReason.${reason as (typeof STOP_REASONS)[number]}` : "stopReason.other";
}

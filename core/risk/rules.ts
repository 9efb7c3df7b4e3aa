/**
 * The protections, one small named rule each (freqtrade "protections" style: pure, `now` passed in).
 * Each returns null to pass or a blocking verdict with a reason message (risk:*, ADR 0007) and its
 * Portuguese text and, when the bot must stop, a PRODUCT.md §4 stop reason. Limits come from the
 * user's settings (PRODUCT.md §3/§5).
 */
import { Decimal } from "../decimal";
import { renderMsg } from "../i18n";
import { msg, type Msg } from "../i18n/message";
import { marketCloseWindow, withinTradingHours } from "./market-hours";
import { maxSpreadPips } from "./spread";
import { resolveTimezone } from "./trading-day";
import type { ManageOnlyReason, RiskRule, RiskVerdict } from "./types";

/** Losses in a row that stop the bot ('Parado por perdas consecutivas', PRODUCT.md §4). Our constant. */
export const MAX_CONSECUTIVE_LOSSES = 4;

function block(code: string, reasonMsg: Msg, stopBot?: RiskVerdict["stopBot"]): RiskVerdict {
  return withText(stopBot ? { allowed: false, code, reasonMsg, stopBot } : { allowed: false, code, reasonMsg });
}

/** The reason shown for each manage-only cause (risk:*, ADR 0007). */
const MANAGE_ONLY_MSG: Record<ManageOnlyReason, Msg> = { licence: msg("risk:licenceInvalid"), user: msg("risk:entriesStopped") };

/** The message of a manage-only reason (e.g. read back from the bot's row); an unknown one reads as the licence's. */
export function manageOnlyMsg(reason: string): Msg {
  return MANAGE_ONLY_MSG[reason as ManageOnlyReason] ?? MANAGE_ONLY_MSG.licence;
}

/**
 * The account-level gate the executor checks once per tick, before any decision: a blocking
 * verdict with `manageOnly` set when the bot may only manage its open trades — the user stopped new
 * entries (`entriesStopped`, issue 22 kill switch; reported first: it is the user's own choice and
 * outlives the licence) or the licence lapsed — else null. Never stops the bot.
 */
export function manageOnlyVerdict(licenceValid: boolean, entriesStopped = false): RiskVerdict | null {
  if (entriesStopped) return withText({ allowed: false, code: "entries_stopped", reasonMsg: MANAGE_ONLY_MSG.user, manageOnly: "user" });
  return licenceValid ? null : withText({ allowed: false, code: "licence_invalid", reasonMsg: MANAGE_ONLY_MSG.licence, manageOnly: "licence" });
}

/**
 * The verdict with its Portuguese `reason`, rendered on first read: a backtest asks the gate
 * thousands of times a second and reads few of the texts (i18next rendering dominated the gate).
 */
export function withText(v: Omit<RiskVerdict, "reason">): RiskVerdict {
  let text: string | undefined;
  return Object.defineProperty(v, "reason", { enumerable: true, get: () => (text ??= renderMsg(v.reasonMsg)) }) as RiskVerdict;
}

/**
 * A decimal rounded half-up to `dp` places, as a decimal string ("3.50"): risk.json formats it with
 * the reader's number format and exactly `dp` decimals ("3,5" in pt and es, "3.5" in en).
 */
function fixed(n: Decimal.Value, dp = 2): string {
  return new Decimal(n).toFixed(dp);
}

/**
 * A licence is required to open trades (PRODUCT.md §4 licence validity). Blocks the entry without
 * stopping the bot: a lapsed licence puts it in manage-only (manageOnlyVerdict, which the executor
 * checks before deciding anything; this rule keeps the gate complete on its own).
 */
export const licenceRule: RiskRule = (ctx) => manageOnlyVerdict(ctx.licenceValid);

/** The broker connection must be up. Stops the bot. */
export const brokerRule: RiskRule = (ctx) =>
  ctx.brokerConnected ? null : block("broker_disconnected", msg("risk:brokerDisconnected"), "broker");

/** The market must be open (price tradeable). Waits, does not stop the bot. */
export const marketOpenRule: RiskRule = (ctx) =>
  ctx.priceTradeable ? null : block("market_closed", msg("risk:marketClosed", { instrument: ctx.instrument }));

/**
 * New trades only inside the user's trading hours (settings.tradingHours, in ctx.timezone; window
 * rules in market-hours.ts). Waits, does not stop the bot: a bot stopped every evening would need a
 * manual restart every morning, so it just opens nothing until the window comes back. (The §4 label
 * 'Parado fora do horário' stays for a stop made for that reason elsewhere, e.g. by hand.)
 */
export const tradingHoursRule: RiskRule = (ctx) => {
  const hours = ctx.settings.tradingHours;
  const timezone = resolveTimezone(ctx.timezone); // an unknown name falls back to the default, never throws
  if (withinTradingHours(ctx.now, hours, timezone)) return null;
  return block("trading_hours", msg("risk:tradingHours", { start: hours.start, end: hours.end, timezone }));
};

/**
 * No new trade in the last settings.weekend.minutesBeforeClose minutes before the weekly FX close
 * (Friday 17:00 New York) nor while the market is closed, unless weekend.mode is 'off'. Waits, does
 * not stop the bot; with mode 'flat' the executor also closes the open positions (marketCloseWindow).
 */
export const weekendRule: RiskRule = (ctx) => {
  const w = marketCloseWindow(ctx.now, ctx.settings);
  if (!w.noEntry) return null;
  return w.closesAt && ctx.now.getTime() >= w.closesAt.getTime()
    ? block("weekend_close", msg("risk:weekendClosed"))
    : block("weekend_close", msg("risk:weekendClose", { minutes: ctx.settings.weekend.minutesBeforeClose }));
};

/** No new trade inside a news blackout window (settings.aiSettings.news). */
export const newsBlackoutRule: RiskRule = (ctx) => {
  if (!ctx.settings.aiSettings.news.enabled || !ctx.newsBlackout?.active) return null;
  const event = ctx.newsBlackout.event;
  return block("news_blackout", event ? msg("risk:newsBlackoutEvent", { event }) : msg("risk:newsBlackout"));
};

/** Spread guard: the spread must not exceed the instrument's limit (spread.ts). */
export const spreadRule: RiskRule = (ctx) => {
  const max = ctx.maxSpreadPips ?? maxSpreadPips(ctx.instrument);
  if (Number.isFinite(ctx.spreadPips) && ctx.spreadPips <= max) return null;
  const params = { max: fixed(max, 1), instrument: ctx.instrument };
  // A missing spread (NaN, ±Infinity) blocks too; its text keeps the raw value.
  return Number.isFinite(ctx.spreadPips)
    ? block("spread_too_wide", msg("risk:spreadTooWide", { spread: fixed(ctx.spreadPips, 1), ...params }))
    : block("spread_too_wide", msg("risk:spreadUnknown", { spread: String(ctx.spreadPips), ...params }));
};

/** At most settings.maxTrades open trades, and one per instrument. */
export const maxTradesRule: RiskRule = (ctx) => {
  if (ctx.openTrades >= ctx.settings.maxTrades) {
    return block("max_trades", msg("risk:maxTrades", { limit: ctx.settings.maxTrades, open: ctx.openTrades }));
  }
  if (ctx.openTradesOnInstrument > 0) return block("instrument_busy", msg("risk:instrumentBusy", { instrument: ctx.instrument }));
  return null;
};

/** At most settings.maxDailyTrades trades per trading day (tradingDayStart). */
export const maxDailyTradesRule: RiskRule = (ctx) =>
  ctx.tradesToday < ctx.settings.maxDailyTrades
    ? null
    : block("max_daily_trades", msg("risk:maxDailyTrades", { limit: ctx.settings.maxDailyTrades }));

/**
 * Loss today ≥ dailyLossLimitPct % of the day-start balance stops the bot. Loss today is the realized
 * loss since tradingDayStart, plus the open trades' unrealized loss when
 * settings.dailyLossIncludesUnrealized (an unrealized gain then offsets realized losses).
 */
export const dailyLossRule: RiskRule = (ctx) => {
  const start = new Decimal(ctx.dayStartBalance);
  const unrealized = ctx.settings.dailyLossIncludesUnrealized ? ctx.unrealizedPL : undefined;
  const realized = new Decimal(ctx.realizedPLToday);
  const loss = (unrealized === undefined ? realized : realized.add(unrealized)).neg();
  if (!start.gt(0) || loss.lte(0)) return null;
  const pct = loss.div(start).mul(100);
  if (pct.lt(ctx.settings.dailyLossLimitPct)) return null;
  const params = { loss: fixed(pct), limit: fixed(ctx.settings.dailyLossLimitPct, 1) };
  return block("daily_loss_limit", msg(unrealized !== undefined ? "risk:dailyLossLimitUnrealized" : "risk:dailyLossLimit", params), "daily_loss_limit");
};

/** Drawdown from the high-water mark ≥ maxDrawdownPct % stops the bot. */
export const maxDrawdownRule: RiskRule = (ctx) => {
  const peak = new Decimal(ctx.highWaterMark);
  const dd = peak.sub(ctx.equity);
  if (!peak.gt(0) || dd.lte(0)) return null;
  const pct = dd.div(peak).mul(100);
  if (pct.lt(ctx.settings.maxDrawdownPct)) return null;
  return block("max_drawdown", msg("risk:maxDrawdown", { drawdown: fixed(pct), limit: fixed(ctx.settings.maxDrawdownPct, 1) }), "max_drawdown");
};

/** At least cooldownSec seconds between two trades (settings.aiSettings.cooldownSec). */
export const cooldownRule: RiskRule = (ctx) => {
  if (!ctx.lastTradeAt) return null;
  const cd = ctx.settings.aiSettings.cooldownSec;
  const elapsed = (ctx.now.getTime() - ctx.lastTradeAt.getTime()) / 1000;
  if (elapsed >= cd) return null;
  return block("cooldown", msg("risk:cooldown", { remaining: Math.ceil(cd - elapsed), total: cd }));
};

/** MAX_CONSECUTIVE_LOSSES losses in a row stop the bot. */
export const consecutiveLossesRule: RiskRule = (ctx) =>
  ctx.consecutiveLosses < MAX_CONSECUTIVE_LOSSES
    ? null
    : block("max_consecutive_losses", msg("risk:consecutiveLosses", { losses: ctx.consecutiveLosses, max: MAX_CONSECUTIVE_LOSSES }), "max_consecutive_losses");

/**
 * The max-drawdown stop that means it (issue 21). A drawdown from the persisted high-water mark of
 * equity (NAV) at or past settings.maxDrawdownPct stops the bot ONCE (maxDrawdownRule, rules.ts) and
 * keeps it stopped until the user re-arms it; re-arming resets the high-water mark to the NAV of the
 * moment. The daily-loss limit and the losing streak are different: they hold for a trading day and
 * the bot may trade again from the next one. Pure: every figure and instant is passed in. Money is in
 * account currency as decimal strings (decimal.js, never floats); instants are UTC.
 */
import { Decimal } from "../decimal";
import { nextTradingDayStart, type TradingDayBoundary } from "./trading-day";
import type { StopBotReason } from "./types";

/** The drawdown of `nav` below the high-water mark `highWaterMark`: amount (≥ 0, 2 dp) and percent of the mark (2 dp). */
export interface Drawdown {
  amount: string;
  pct: string;
}

/**
 * Drawdown = (high-water mark − NAV) / high-water mark × 100 (the field's "peak-to-current" drawdown),
 * rounded half-up to 2 decimals; zero when NAV is at or above the mark or the mark is not positive.
 * @throws on a value decimal.js cannot read
 */
export function drawdownFrom(highWaterMark: Decimal.Value, nav: Decimal.Value): Drawdown {
  const peak = new Decimal(highWaterMark);
  const drop = peak.sub(nav);
  if (!peak.gt(0) || drop.lte(0)) return { amount: "0.00", pct: "0.00" };
  return { amount: drop.toFixed(2), pct: drop.div(peak).mul(100).toFixed(2) };
}

/** A closed trade behind a drawdown stop: the broker's trade id, pair, close instant (ISO) and realized P&L (account currency). */
export interface DrawdownTrade {
  id: string;
  instrument: string;
  closeTime: string;
  pl: string;
}

/**
 * What a max-drawdown stop records on the bot and tells the user (the notification, the status API,
 * the re-arm confirmation): when, the limit, the high-water mark and the NAV then, the drawdown, the
 * account currency, since when the mark stood (`since`, broker clock; null when unknown) and the
 * trades closed since then, oldest first, with their total.
 */
export interface DrawdownStop {
  at: string;
  limitPct: string;
  highWaterMark: string;
  nav: string;
  drawdownPct: string;
  drawdownAmount: string;
  currency: string;
  since: string | null;
  trades: DrawdownTrade[];
  tradesPl: string;
}

/**
 * The record of a max-drawdown stop from the figures of the tick that stopped it (see DrawdownStop).
 * Trades are sorted oldest close first; `tradesPl` is their summed P&L (2 dp).
 */
export function drawdownStopRecord(input: {
  at: Date;
  limitPct: number;
  highWaterMark: string;
  nav: string;
  currency: string;
  since: Date | null;
  trades: readonly DrawdownTrade[];
}): DrawdownStop {
  const dd = drawdownFrom(input.highWaterMark, input.nav);
  const trades = [...input.trades].sort((a, b) => Date.parse(a.closeTime) - Date.parse(b.closeTime));
  return {
    at: input.at.toISOString(),
    limitPct: new Decimal(input.limitPct).toFixed(1),
    highWaterMark: new Decimal(input.highWaterMark).toFixed(2),
    nav: new Decimal(input.nav).toFixed(2),
    drawdownPct: dd.pct,
    drawdownAmount: dd.amount,
    currency: input.currency,
    since: input.since?.toISOString() ?? null,
    trades,
    tradesPl: trades.reduce((sum, t) => sum.add(t.pl), new Decimal(0)).toFixed(2),
  };
}

/**
 * When a bot stopped by a risk rule may trade again without the user: the start of the next trading
 * day (local midnight in `timezone`, or 17:00 New York with `boundary` "ny_close") after a daily-loss or losing-streak stop; never (null) after a
 * max-drawdown stop, which waits for the user's re-arm (a backtest has no user: it stays stopped for
 * the rest of the run). Other reasons (broker, trading hours) resume the next trading day as well.
 */
export function resumeAfterStop(reason: StopBotReason, now: Date, timezone?: string, boundary?: TradingDayBoundary): Date | null {
  return reason === "max_drawdown" ? null : nextTradingDayStart(now, timezone, boundary);
}

/**
 * What a start request does given the bot's drawdown-stop state: "start" (not drawdown-stopped),
 * "rearm" (drawdown-stopped and the user confirmed the re-arm: reset the high-water mark, then start)
 * or "refuse" (drawdown-stopped, no confirmation: the API answers 409, the hero asks "Reativar a IA?").
 */
export function startRequest(drawdownStopped: boolean, rearmConfirmed: boolean): "start" | "rearm" | "refuse" {
  if (!drawdownStopped) return "start";
  return rearmConfirmed ? "rearm" : "refuse";
}

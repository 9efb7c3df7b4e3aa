/**
 * The account's balance curve from its closed trades (dashboard, issue 12): cumulative realized P&L,
 * anchored so the last point equals the current balance (the account summary the page already read: no
 * extra broker call). Decimal arithmetic on the money (core/decimal.ts); the points carry a float `value`
 * for plotting and the exact decimal `balance` for the text fallback.
 *
 * Point 0 is the balance before the first listed trade (balance − Σ P&L), at that trade's open time
 * (else one second before its close); then one point per close, in close-time order. Trades closing in
 * the same second give one point (the balance after all of them). Financing and transfers are not
 * trades: they show as part of the starting balance.
 */
import { Decimal } from "../../core/decimal";

/** A closed trade as the curve needs it: P&L in account currency (decimal string), ISO times. */
export interface EquityTrade {
  pnl: string | number;
  closeTime: string | null;
  openTime?: string | null;
}

/** One point: `time` in UTC seconds, `value` for plotting, `balance` exact (decimal string, 2 places). */
export interface EquityPoint {
  time: number;
  value: number;
  balance: string;
}

/**
 * The balance curve ending at `currentBalance` (decimal string; null → the curve starts at 0 and shows
 * cumulative P&L). Trades without a close time or with an invalid P&L are skipped; fewer than one
 * usable trade gives an empty curve.
 */
export function equityCurve(trades: readonly EquityTrade[], currentBalance: string | null): EquityPoint[] {
  const usable = trades
    .map((t) => ({ t, close: t.closeTime ? Date.parse(t.closeTime) : NaN, pnl: safeDecimal(t.pnl) }))
    .filter((x): x is { t: EquityTrade; close: number; pnl: Decimal } => Number.isFinite(x.close) && x.pnl !== null)
    .sort((a, b) => a.close - b.close);
  if (usable.length === 0) return [];
  const total = usable.reduce((s, x) => s.plus(x.pnl), new Decimal(0));
  const end = currentBalance !== null ? safeDecimal(currentBalance) : null;
  let balance = end ? end.minus(total) : new Decimal(0);
  const firstClose = Math.floor(usable[0]!.close / 1000);
  const firstOpen = usable[0]!.t.openTime ? Math.floor(Date.parse(usable[0]!.t.openTime) / 1000) : NaN;
  const startTime = Number.isFinite(firstOpen) && firstOpen < firstClose ? firstOpen : firstClose - 1;
  const points: EquityPoint[] = [point(startTime, balance)];
  for (const x of usable) {
    balance = balance.plus(x.pnl);
    const time = Math.floor(x.close / 1000);
    const last = points[points.length - 1]!;
    if (last.time >= time) points[points.length - 1] = point(last.time, balance);
    else points.push(point(time, balance));
  }
  return points;
}

function point(time: number, balance: Decimal): EquityPoint {
  const exact = balance.toDecimalPlaces(2);
  return { time, value: exact.toNumber(), balance: exact.toFixed(2) };
}

function safeDecimal(v: string | number | null | undefined): Decimal | null {
  if (v === null || v === undefined || v === "") return null;
  try {
    const d = new Decimal(v);
    return d.isFinite() ? d : null;
  } catch {
    return null;
  }
}

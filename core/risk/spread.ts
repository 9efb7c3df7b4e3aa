/**
 * Spread guard limits: the widest spread (in pips) at which the bot still opens a trade.
 * Majors normally trade at 0.1–1.5 pips on OANDA; 3 pips means unusual conditions (news, rollover
 * at ~17:00 New York, thin liquidity), when market orders fill badly. Our constant, not from the spec.
 */
import { Decimal } from "../decimal";
import { pipSize } from "../instruments";

export const MAX_SPREAD_PIPS: Readonly<Record<string, number>> = Object.freeze({
  EUR_USD: 3,
  GBP_USD: 3,
  USD_JPY: 3,
});
/** Limit for instruments not in the table. */
export const DEFAULT_MAX_SPREAD_PIPS = 5;

/** Max allowed spread in pips for an instrument. */
export function maxSpreadPips(instrument: string): number {
  return MAX_SPREAD_PIPS[instrument] ?? DEFAULT_MAX_SPREAD_PIPS;
}

/** Spread in pips of a quote (ask − bid) / pip; decimal strings in, number out (1 decimal). */
export function spreadInPips(instrument: string, bid: string, ask: string): number {
  return new Decimal(ask).sub(bid).div(pipSize(instrument)).toDecimalPlaces(1).toNumber();
}

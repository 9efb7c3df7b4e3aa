/**
 * Spread guard limits: the widest spread (in pips) at which the bot still opens a trade.
 * Majors normally trade at 0.1–1.5 pips on OANDA; 3 pips means unusual conditions (news, rollover
 * at ~17:00 New York, thin liquidity), when market orders fill badly. Our constant, not from the spec.
 */
import { Decimal } from "../decimal";
import { instrumentSpec, pipSize } from "../instruments";

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
  // Fast path (every tick, every instrument): plain prices with the same number of decimals are
  // compared as integers, exactly; anything else goes through Decimal.
  const dot = bid.indexOf(".");
  const decimals = bid.length - dot - 1;
  if (dot > 0 && ask.length - ask.indexOf(".") - 1 === decimals && ask.indexOf(".") > 0 && PLAIN_PRICE.test(bid) && PLAIN_PRICE.test(ask)) {
    const ticks = Number(ask.replace(".", "")) - Number(bid.replace(".", ""));
    const pipTicks = 10 ** (decimals + instrumentSpec(instrument).pipLocation);
    if (Number.isSafeInteger(ticks) && ticks >= 0 && Number.isInteger(pipTicks) && pipTicks > 0) return Math.round((ticks * 10) / pipTicks) / 10;
  }
  return new Decimal(ask).sub(bid).div(pipSize(instrument)).toDecimalPlaces(1).toNumber();
}

const PLAIN_PRICE = /^\d+\.\d+$/;

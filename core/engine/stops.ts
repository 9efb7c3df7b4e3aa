/**
 * Stop loss, take profit and trailing-stop distance from ATR (DESIGN.md §3 step 2):
 * SL distance = ATR × slRatio, TP distance = ATR × tpRatio, measured from the entry price;
 * the scalper's trailing distance = micro ATR × trailMult. Distances are rounded to the
 * instrument's displayPrecision and never below MIN_STOP_PIPS (SL/TP) or MIN_TRAILING_PIPS
 * (trailing), so an order never carries a zero distance. Prices are Decimal, formatted with
 * formatPrice (5 dp, 3 dp for JPY pairs) as OANDA wants them.
 */
import { Decimal } from "../decimal";
import { formatPrice, instrumentSpec, pipSize } from "../instruments";

/** Smallest SL/TP distance in pips. */
export const MIN_STOP_PIPS = 1;
/** Smallest trailing-stop distance in pips (OANDA's usual minimumTrailingStopDistance, 5 pips on majors). */
export const MIN_TRAILING_PIPS = 5;

export interface StopsInput {
  instrument: string;
  side: "buy" | "sell";
  /** Entry price (ask for a buy, bid for a sell), decimal string or Decimal. */
  entry: Decimal.Value;
  /** ATR in price units. */
  atr: number;
  slRatio: number;
  tpRatio: number;
  /** Scalper trailing stop: micro ATR (price units) × mult. */
  trailing?: { microAtr: number; mult: number };
}

export interface Stops {
  stopLoss: string;
  takeProfit: string;
  trailingStopDistance?: string;
  /** SL distance in price units (used by sizing). */
  stopDistance: Decimal;
  /** SL / TP distances in pips. */
  stopPips: number;
  takeProfitPips: number;
}

/** A distance in price units rounded to the instrument's precision, at least `minPips`. */
function distance(instrument: string, raw: number, minPips: number): Decimal {
  const dp = instrumentSpec(instrument).displayPrecision;
  const d = new Decimal(Number.isFinite(raw) && raw > 0 ? raw : 0).toDecimalPlaces(dp, Decimal.ROUND_HALF_UP);
  const min = pipSize(instrument).mul(minPips);
  return Decimal.max(d, min);
}

/**
 * SL/TP prices (and trailing distance) for an entry. Buy: SL below, TP above; sell: the reverse.
 * @throws Error for an invalid instrument name.
 */
export function computeStops(input: StopsInput): Stops {
  const { instrument, side } = input;
  const entry = new Decimal(input.entry);
  const sl = distance(instrument, input.atr * input.slRatio, MIN_STOP_PIPS);
  const tp = distance(instrument, input.atr * input.tpRatio, MIN_STOP_PIPS);
  const dir = side === "buy" ? 1 : -1;
  const pip = pipSize(instrument);
  const out: Stops = {
    stopLoss: formatPrice(instrument, entry.sub(sl.mul(dir))),
    takeProfit: formatPrice(instrument, entry.add(tp.mul(dir))),
    stopDistance: sl,
    stopPips: sl.div(pip).toNumber(),
    takeProfitPips: tp.div(pip).toNumber(),
  };
  if (input.trailing) {
    const tr = distance(instrument, input.trailing.microAtr * input.trailing.mult, MIN_TRAILING_PIPS);
    out.trailingStopDistance = formatPrice(instrument, tr);
  }
  return out;
}

/**
 * Position size in units (DESIGN.md §3 step 2; PRODUCT.md §5 fixed-lot rule).
 *
 * - auto: risk RISK_PER_TRADE_PCT of the balance (account currency) over the stop distance:
 *   units = floor(balance × 1% / (stopDistance × quote→account rate)). The rate is 1 when the
 *   quote currency is the account currency (EUR_USD on USD), 1/price when the base currency is
 *   (USD_JPY on USD), else the caller's `quoteToAccountRate`. Capped by margin:
 *   units ≤ marginAvailable / (price × rate × marginRate) when marginAvailable is given; and by
 *   leverage: notional (units × price × rate) ≤ balance × L, so a tight stop can never turn into an
 *   oversized position that a price gap would punish far beyond 1 %. L is the user's
 *   `maxLeveragePerTrade` setting (default MAX_LEVERAGE_PER_TRADE = 5, ADR 0034), never above the
 *   broker's own limit for the pair, floor(1 / marginRate) (`effectiveLeverage`). When L binds the
 *   trade risks less than 1 % (`positionRisk` tells how much).
 * - fixed: fixedLot × 100 000 units (UNITS_PER_LOT, PRODUCT.md §9), floored to whole units; refused
 *   (not shrunk: the user chose that size) when it exceeds the same leverage or margin cap.
 * The result is a signed integer string: + buy, − sell (OANDA convention).
 */
import { Decimal } from "../decimal";
import type { Msg } from "../i18n/message";
import { instrumentSpec, UNITS_PER_LOT } from "../instruments";
import { DEFAULT_MAX_LEVERAGE_PER_TRADE, type LotMode } from "../settings";
import { say } from "./text";

/** Percent of the balance risked per trade in automatic sizing (the common 1 % rule of retail risk management). */
export const RISK_PER_TRADE_PCT = 1;

/**
 * Default largest notional of one trade, as a multiple of the balance (the `maxLeveragePerTrade`
 * setting's default, core/settings.ts). With the default maxTrades of 3 the account stays within
 * 15:1, half the 30:1 ESMA retail limit for major pairs.
 */
export const MAX_LEVERAGE_PER_TRADE = DEFAULT_MAX_LEVERAGE_PER_TRADE;

/**
 * The broker's largest leverage for a margin rate: floor(1 / marginRate), e.g. "0.0333" → 30,
 * "0.05" → 20 (OANDA: margin = notional × marginRate). Infinity for a rate that is not positive.
 */
export function brokerMaxLeverage(marginRate: Decimal.Value): number {
  const r = new Decimal(marginRate);
  if (!r.isFinite() || !r.gt(0)) return Infinity;
  // 1 / 0.0333 = 30.03…: rounded to 1e-6 first so a rate like 0.05 gives exactly 20.
  return new Decimal(1).div(r).toDecimalPlaces(6).floor().toNumber();
}

/**
 * The leverage cap a trade uses: the user's setting (× balance; MAX_LEVERAGE_PER_TRADE when not
 * given or not a positive number), never above the broker's limit for the pair's margin rate.
 */
export function effectiveLeverage(setting: number | undefined, marginRate: Decimal.Value): number {
  const chosen = typeof setting === "number" && Number.isFinite(setting) && setting > 0 ? setting : MAX_LEVERAGE_PER_TRADE;
  return Math.min(chosen, brokerMaxLeverage(marginRate));
}

/** What one position risks on its stop, in account currency and as % of the balance. */
export interface PositionRisk {
  /** |units| × |entry − stop| × quote→account rate, account currency, 2 decimals (rounded up). */
  amount: string;
  /** amount / balance × 100, 2 decimals; null when the balance is not positive. */
  pct: string | null;
}

/**
 * Risk of a position at its stop: |units| × stopDistance × quote→account rate, and that as a percent
 * of `balance` (the balance the trade was sized on). Money in Decimal, never floats.
 */
export function positionRisk(input: { units: Decimal.Value; stopDistance: Decimal.Value; rate: Decimal.Value; balance: Decimal.Value }): PositionRisk {
  const amount = new Decimal(input.units).abs().mul(new Decimal(input.stopDistance).abs()).mul(input.rate);
  const balance = new Decimal(input.balance);
  return {
    amount: amount.toDecimalPlaces(2, Decimal.ROUND_UP).toFixed(2),
    pct: balance.gt(0) ? amount.div(balance).mul(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2) : null,
  };
}

export interface SizingInput {
  instrument: string;
  side: "buy" | "sell";
  mode: LotMode;
  fixedLot: number;
  /** Balance in account currency. */
  balance: Decimal.Value;
  accountCurrency: string;
  /** Entry price (quote currency per base unit). */
  price: Decimal.Value;
  /** Stop-loss distance in price units (quote currency per unit). */
  stopDistance: Decimal.Value;
  /** Quote currency → account currency, needed when neither side of the pair is the account currency. */
  quoteToAccountRate?: Decimal.Value;
  /** Margin available in account currency; caps automatic sizing when given. */
  marginAvailable?: Decimal.Value;
  /** Margin rate (e.g. "0.0333"); defaults to the instrument's. */
  marginRate?: Decimal.Value;
  /** The user's `maxLeveragePerTrade` (× balance of notional); MAX_LEVERAGE_PER_TRADE when absent. */
  maxLeverage?: number;
}

/** Units, or why none: a message (engine:sizing.*) and its Portuguese text. */
export type SizingResult = { ok: true; units: string } | { ok: false; reason: string; reasonMsg: Msg };

function fail(key: string, params?: Record<string, string>): SizingResult {
  const said = say(key, params);
  return { ok: false, reason: said.text, reasonMsg: said.msg };
}

/**
 * Quote → account currency rate: 1 if quote = account, 1/price if base = account, else `given`.
 * Returns null when a rate is needed and not given (or not positive).
 */
export function quoteToAccount(instrument: string, accountCurrency: string, price: Decimal.Value, given?: Decimal.Value): Decimal | null {
  const { base, quote } = instrumentSpec(instrument);
  if (quote === accountCurrency) return new Decimal(1);
  if (base === accountCurrency) return new Decimal(1).div(price);
  if (given === undefined) return null;
  const r = new Decimal(given);
  return r.isFinite() && r.gt(0) ? r : null;
}

/** Units for an order, signed by side. Errors are returned (reason message and Portuguese text), never thrown. */
export function computeUnits(input: SizingInput): SizingResult {
  const sign = input.side === "buy" ? 1 : -1;
  const rate = quoteToAccount(input.instrument, input.accountCurrency, input.price, input.quoteToAccountRate);
  if (input.mode === "fixed") {
    const units = new Decimal(input.fixedLot).mul(UNITS_PER_LOT).floor();
    if (!units.isFinite() || units.lte(0)) return fail("engine:sizing.invalidFixedLot");
    if (!rate) return fail("engine:sizing.noConversionRate", { from: instrumentSpec(input.instrument).quote, to: input.accountCurrency });
    const cap = unitCap(input, rate);
    if (cap !== null && units.gt(cap)) {
      return fail("engine:sizing.fixedLotTooLarge", { lots: units.div(UNITS_PER_LOT).toFixed(2), maxLots: Decimal.max(cap, 0).div(UNITS_PER_LOT).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(2) });
    }
    return { ok: true, units: units.mul(sign).toFixed(0) };
  }
  if (!rate) return fail("engine:sizing.noConversionRate", { from: instrumentSpec(input.instrument).quote, to: input.accountCurrency });
  const stop = new Decimal(input.stopDistance);
  if (!stop.gt(0)) return fail("engine:sizing.invalidStopDistance");
  const risk = new Decimal(input.balance).mul(RISK_PER_TRADE_PCT).div(100);
  // Rounded to 1e-6 before flooring: a rate like 1/150 carries a last-digit artefact (29 999.999…).
  let units = risk.div(stop.mul(rate)).toDecimalPlaces(6).floor();
  const cap = unitCap(input, rate);
  if (cap !== null) units = Decimal.min(units, cap);
  if (units.lte(0)) return fail("engine:sizing.zeroUnits");
  return { ok: true, units: units.mul(sign).toFixed(0) };
}

/**
 * The most units one trade may have: notional ≤ balance × effectiveLeverage(maxLeverage, marginRate)
 * and, when the margin available is known, margin ≤ marginAvailable. Null when the price gives no notional.
 */
function unitCap(input: Pick<SizingInput, "instrument" | "balance" | "price" | "marginAvailable" | "marginRate" | "maxLeverage">, rate: Decimal): Decimal | null {
  const notionalPerUnit = new Decimal(input.price).mul(rate);
  if (!notionalPerUnit.gt(0)) return null;
  const marginRate = new Decimal(input.marginRate ?? instrumentSpec(input.instrument).marginRate);
  const leverage = effectiveLeverage(input.maxLeverage, marginRate);
  let cap = new Decimal(input.balance).mul(leverage).div(notionalPerUnit).floor();
  if (input.marginAvailable !== undefined) {
    const perUnit = notionalPerUnit.mul(marginRate);
    if (perUnit.gt(0)) cap = Decimal.min(cap, new Decimal(input.marginAvailable).div(perUnit).floor());
  }
  return cap;
}

/**
 * The most units one trade may have now (the caps of `computeUnits`: notional ≤ balance × the leverage
 * cap, margin ≤ marginAvailable): what a manual order is held to (issue 22). Null when no quote →
 * account rate is known or the price gives no notional.
 */
export function maxTradeUnits(
  input: Pick<SizingInput, "instrument" | "balance" | "accountCurrency" | "price" | "quoteToAccountRate" | "marginAvailable" | "marginRate" | "maxLeverage">,
): Decimal | null {
  const rate = quoteToAccount(input.instrument, input.accountCurrency, input.price, input.quoteToAccountRate);
  return rate ? unitCap(input, rate) : null;
}

/**
 * The user's manual market order (PRODUCT.md §7 Orders: POST /api/orders/market, /api/trading/order;
 * issue 22), the pure part: reading the request, its stop loss and take profit, and the order the
 * broker receives. The product never opens a trade without a stop loss: when the request names none,
 * the AI's own stop for the instrument is used — ATR × slRatio (core/engine/stops.ts computeStops)
 * with the typical ATR of the timeframe the user's style trades (core/risk/preflight.ts
 * typicalStop, TYPICAL_ATR_PIPS) — and likewise the AI's take profit (ATR × tpRatio); the answer
 * says which were defaulted. Prices and distances are Decimal, never floats.
 */
import type { MarketOrderRequest } from "../broker/port";
import { Decimal } from "../decimal";
import { msg, type Msg } from "../i18n/message";
import { formatPrice, pipSize, UNITS_PER_LOT } from "../instruments";
import { computeStops, MIN_STOP_PIPS } from "../engine/stops";
import { typicalStop, TYPICAL_ATR_PIPS } from "../risk/preflight";
import type { TradingSettings } from "../settings";

/** The client-extensions tag of a manual order and its trade: not the AI's (its exits never touch it, core/trading/exits.ts). */
export const MANUAL_TRADE_TAG = "forex-ia-manual";

/** Largest |units| one manual order may ask for (a typo guard; the leverage cap is far below it on any real balance). */
export const MAX_MANUAL_UNITS = 100_000_000;

/** Largest stop loss / take profit distance in pips. */
export const MAX_STOP_PIPS = 10_000;

/** An idempotency key: 1–128 letters, digits, `.`, `_`, `:` or `-`. */
const KEY_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** A stop loss or take profit as asked: a distance in pips or a price. */
export type StopSpec = { pips: string } | { price: string };

/** A valid manual order request. */
export interface ManualOrderInput {
  /** OANDA name, e.g. EUR_USD. */
  instrument: string;
  /** Signed integer units (+ buy, − sell), decimal string. */
  units: string;
  side: "buy" | "sell";
  stopLoss: StopSpec | null;
  takeProfit: StopSpec | null;
  /** The caller's idempotency key (body `idempotencyKey` or the Idempotency-Key header), or null. */
  idempotencyKey: string | null;
}

/** A refused request: the message (namespace `manual-order`) and the field it is about. */
export type Refusal = { ok: false; msg: Msg; field: string };

const refuse = (key: string, field: string, params?: Record<string, string | number>): Refusal => ({ ok: false, msg: msg(`manual-order:errors.${key}`, params), field });

/** A decimal from a JSON number or numeric string, or null. */
function decimalOf(v: unknown): Decimal | null {
  if (typeof v === "number" && Number.isFinite(v)) return new Decimal(v);
  if (typeof v === "string" && /^\s*[+-]?\d+(\.\d+)?\s*$/.test(v)) return new Decimal(v.trim());
  return null;
}

/** A stop given as pips (`pipsKey`) or price (`priceKey`), both refused, neither null. */
function stopOf(body: Record<string, unknown>, pipsKey: string, priceKey: string): StopSpec | null | Refusal {
  const hasPips = body[pipsKey] !== undefined && body[pipsKey] !== null;
  const hasPrice = body[priceKey] !== undefined && body[priceKey] !== null;
  if (hasPips && hasPrice) return refuse("stopBoth", pipsKey, { pips: pipsKey, price: priceKey });
  if (hasPips) {
    const d = decimalOf(body[pipsKey]);
    if (!d || d.lt(MIN_STOP_PIPS) || d.gt(MAX_STOP_PIPS)) return refuse("pips", pipsKey, { field: pipsKey, min: MIN_STOP_PIPS, max: MAX_STOP_PIPS });
    return { pips: d.toString() };
  }
  if (hasPrice) {
    const d = decimalOf(body[priceKey]);
    if (!d || !d.gt(0)) return refuse("price", priceKey, { field: priceKey });
    return { price: d.toString() };
  }
  return null;
}

const isRefusal = (v: unknown): v is Refusal => typeof v === "object" && v !== null && (v as { ok?: unknown }).ok === false;

/**
 * Reads a manual order body: `instrument` ("EUR_USD" or "EUR/USD"), and either `units` (a signed
 * integer: + buy, − sell) or `side` ("buy" | "sell") with positive `units` or `lots` (2 decimals,
 * × UNITS_PER_LOT); `stopLossPips` or `stopLoss` (a price), `takeProfitPips` or `takeProfit`;
 * `idempotencyKey` (or `headerKey`, the Idempotency-Key header; when both are given they must agree).
 * Never throws: a bad field is a Refusal naming it.
 */
export function parseManualOrder(raw: unknown, headerKey: string | null = null): { ok: true; input: ManualOrderInput } | Refusal {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return refuse("body", "body");
  const body = raw as Record<string, unknown>;
  const instrument = typeof body.instrument === "string" ? body.instrument.trim().toUpperCase().replace("/", "_") : "";
  if (!/^[A-Z]{3}_[A-Z]{3}$/.test(instrument)) return refuse("instrument", "instrument");

  let side: "buy" | "sell" | undefined;
  if (body.side !== undefined && body.side !== null) {
    const s = typeof body.side === "string" ? body.side.trim().toLowerCase() : "";
    if (s !== "buy" && s !== "sell") return refuse("side", "side");
    side = s;
  }
  const hasUnits = body.units !== undefined && body.units !== null && body.units !== "";
  const hasLots = body.lots !== undefined && body.lots !== null && body.lots !== "";
  if (hasUnits && hasLots) return refuse("unitsAndLots", "units");
  let units: Decimal;
  if (hasLots) {
    const lots = decimalOf(body.lots);
    if (!lots || !lots.gt(0) || lots.decimalPlaces() > 2) return refuse("lots", "lots");
    if (!side) return refuse("sideRequired", "side");
    units = lots.mul(UNITS_PER_LOT);
  } else if (hasUnits) {
    const u = typeof body.units === "number" ? (Number.isInteger(body.units) ? new Decimal(body.units) : null) : decimalOf(body.units);
    if (!u || !u.isInteger() || u.isZero()) return refuse("units", "units");
    if (side && u.lt(0)) return refuse("unitsSigned", "units");
    units = u;
  } else return refuse("unitsRequired", "units");
  const signed = side ? units.abs().mul(side === "buy" ? 1 : -1) : units;
  if (signed.abs().gt(MAX_MANUAL_UNITS)) return refuse("unitsTooLarge", "units", { max: MAX_MANUAL_UNITS });

  const stopLoss = stopOf(body, "stopLossPips", "stopLoss");
  if (isRefusal(stopLoss)) return stopLoss;
  const takeProfit = stopOf(body, "takeProfitPips", "takeProfit");
  if (isRefusal(takeProfit)) return takeProfit;

  const bodyKey = body.idempotencyKey === undefined || body.idempotencyKey === null ? null : body.idempotencyKey;
  if (bodyKey !== null && (typeof bodyKey !== "string" || !KEY_PATTERN.test(bodyKey))) return refuse("idempotencyKey", "idempotencyKey");
  const header = headerKey?.trim() || null;
  if (header !== null && !KEY_PATTERN.test(header)) return refuse("idempotencyKey", "idempotencyKey");
  if (bodyKey !== null && header !== null && bodyKey !== header) return refuse("idempotencyKeyMismatch", "idempotencyKey");

  return {
    ok: true,
    input: { instrument, units: signed.toFixed(0), side: signed.gt(0) ? "buy" : "sell", stopLoss, takeProfit, idempotencyKey: (bodyKey as string | null) ?? header },
  };
}

/** The stop loss and take profit of a manual order: prices, distances in pips, and which were the AI's defaults. */
export interface ManualStops {
  stopLoss: string;
  takeProfit: string;
  stopLossPips: string;
  takeProfitPips: string;
  defaulted: { stopLoss: boolean; takeProfit: boolean };
  /** The timeframe whose typical ATR gave the defaults. */
  timeframe: string;
}

/**
 * The order's stop loss and take profit from the entry price (ask for a buy, bid for a sell): a
 * distance in pips is measured from the entry; a price must lie on the right side of it (buy: stop
 * below, target above; sell: the reverse) at least MIN_STOP_PIPS away; a missing one is the AI's
 * (see the module doc). Never throws for a valid instrument.
 */
export function manualStops(
  input: Pick<ManualOrderInput, "instrument" | "side" | "stopLoss" | "takeProfit">,
  entry: Decimal.Value,
  settings: Pick<TradingSettings, "timeframe" | "aiSettings" | "slRatio" | "tpRatio">,
): { ok: true; stops: ManualStops } | Refusal {
  const { instrument, side } = input;
  const e = new Decimal(entry);
  const pip = pipSize(instrument);
  const dir = side === "buy" ? 1 : -1;
  const { timeframe } = typicalStop(settings);
  const ai = computeStops({ instrument, side, entry: e, atr: pip.mul(TYPICAL_ATR_PIPS[timeframe]).toNumber(), slRatio: settings.slRatio, tpRatio: settings.tpRatio });
  const resolve = (spec: StopSpec | null, kind: "stopLoss" | "takeProfit"): { price: string; pips: string } | Refusal => {
    // The stop is on the losing side of the entry (−dir), the target on the winning side (+dir).
    const towards = kind === "stopLoss" ? -dir : dir;
    if (!spec) {
      const price = kind === "stopLoss" ? ai.stopLoss : ai.takeProfit;
      return { price, pips: new Decimal(price).sub(e).abs().div(pip).toDecimalPlaces(1).toString() };
    }
    if ("pips" in spec) return { price: formatPrice(instrument, e.add(pip.mul(spec.pips).mul(towards))), pips: spec.pips };
    const price = new Decimal(spec.price);
    const distance = price.sub(e).mul(towards);
    if (distance.lt(pip.mul(MIN_STOP_PIPS))) return refuse(kind === "stopLoss" ? "stopLossSide" : "takeProfitSide", kind, { entry: formatPrice(instrument, e), min: MIN_STOP_PIPS });
    return { price: formatPrice(instrument, price), pips: distance.div(pip).toDecimalPlaces(1).toString() };
  };
  const sl = resolve(input.stopLoss, "stopLoss");
  if (isRefusal(sl)) return sl;
  const tp = resolve(input.takeProfit, "takeProfit");
  if (isRefusal(tp)) return tp;
  return {
    ok: true,
    stops: {
      stopLoss: sl.price,
      takeProfit: tp.price,
      stopLossPips: sl.pips,
      takeProfitPips: tp.pips,
      defaulted: { stopLoss: !input.stopLoss, takeProfit: !input.takeProfit },
      timeframe,
    },
  };
}

/** The broker's market order for a manual order: signed units, SL/TP attached on fill, tagged manual with `clientId` (the idempotency of the order). */
export function manualOrderRequest(o: { instrument: string; units: string; stopLoss: string; takeProfit: string }, clientId: string): MarketOrderRequest {
  const ext = { id: clientId, tag: MANUAL_TRADE_TAG, comment: "Ordem manual" };
  return {
    instrument: o.instrument,
    units: o.units,
    stopLossOnFill: { price: o.stopLoss },
    takeProfitOnFill: { price: o.takeProfit },
    clientExtensions: ext,
    tradeClientExtensions: ext,
  };
}

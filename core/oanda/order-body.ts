/**
 * The JSON body of POST /v3/accounts/{id}/orders for a market order (oanda/PROTOCOL.md §7.8):
 * FOK, positionFill DEFAULT, dependent orders GTC, prices at the instrument's displayPrecision
 * (`precisionOf` when the broker told us, else core/instruments.ts), client extensions as given.
 * Shared by the OANDA client and the backtest's in-process simulator broker.
 * @throws RangeError on an invalid price or a stop loss with both/neither price and distance
 */
import type { ClientExtensions, MarketOrderRequest } from "../broker/port";
import { Decimal } from "../decimal";
import { formatPrice } from "../instruments";

export function marketOrderBody(o: MarketOrderRequest, precisionOf: (instrument: string) => number | undefined = () => undefined): { order: Record<string, unknown> } {
  const fmtPrice = (instrument: string, value: Decimal.Value, field: string): string => {
    let d: Decimal;
    try {
      d = new Decimal(value);
    } catch {
      throw new RangeError(`${field}: preço inválido (${String(value)})`);
    }
    if (!d.isFinite() || d.isNegative()) throw new RangeError(`${field}: preço inválido (${String(value)})`);
    const p = precisionOf(instrument);
    return p === undefined ? formatPrice(instrument, d) : d.toDecimalPlaces(p, Decimal.ROUND_HALF_UP).toFixed(p);
  };

  const ext = (c: ClientExtensions | undefined) => {
    if (!c) return undefined;
    const out: ClientExtensions = {};
    if (c.id !== undefined) out.id = c.id;
    if (c.tag !== undefined) out.tag = c.tag;
    if (c.comment !== undefined) out.comment = c.comment;
    return out;
  };

  {
    const order: Record<string, unknown> = {
      type: "MARKET",
      instrument: o.instrument,
      units: formatUnits(o.units),
      timeInForce: "FOK",
      positionFill: "DEFAULT",
    };
    if (o.stopLossOnFill) {
      const { price, distance } = o.stopLossOnFill;
      if ((price === undefined) === (distance === undefined))
        throw new RangeError("stopLossOnFill: informe price ou distance (um só)");
      order.stopLossOnFill =
        price !== undefined
          ? { price: fmtPrice(o.instrument, price, "stopLossOnFill.price"), timeInForce: "GTC" }
          : { distance: fmtPrice(o.instrument, distance!, "stopLossOnFill.distance"), timeInForce: "GTC" };
    }
    if (o.takeProfitOnFill) {
      order.takeProfitOnFill = {
        price: fmtPrice(o.instrument, o.takeProfitOnFill.price, "takeProfitOnFill.price"),
        timeInForce: "GTC",
      };
    }
    if (o.trailingStopLossOnFill) {
      order.trailingStopLossOnFill = {
        distance: fmtPrice(o.instrument, o.trailingStopLossOnFill.distance, "trailingStopLossOnFill.distance"),
        timeInForce: "GTC",
      };
    }
    const ce = ext(o.clientExtensions);
    if (ce) order.clientExtensions = ce;
    const tce = ext(o.tradeClientExtensions);
    if (tce) order.tradeClientExtensions = tce;
    return { order };
  }
}

/**
 * A signed, non-zero integer units string ("10000", "-2500") from a decimal string.
 * @throws RangeError for fractional, zero or unreadable units (OANDA: UNITS_PRECISION_EXCEEDED / UNITS_INVALID).
 */
export function formatUnits(units: Decimal.Value, opts: { positive?: boolean } = {}): string {
  let d: Decimal;
  try {
    d = new Decimal(units);
  } catch {
    throw new RangeError(`Unidades inválidas: ${String(units)}`);
  }
  if (!d.isFinite() || !d.isInteger() || d.isZero()) throw new RangeError(`Unidades inválidas: ${String(units)}`);
  if (opts.positive && d.isNegative()) throw new RangeError(`Unidades devem ser positivas: ${String(units)}`);
  return d.toFixed(0);
}


/**
 * Instrument facts the product trades, and the unit conventions around them.
 *
 * Sources:
 * - Precision: OANDA v20 instrument list (oanda/PROTOCOL.md §6; recorded response
 *   oanda/fixtures/async_v20/account_instruments.json): FX pairs quoted in JPY, THB, INR or HUF have
 *   displayPrecision 3 / pipLocation -2, the others 5 / -4; every FX pair has tradeUnitsPrecision 0
 *   (whole units) and minimumTradeSize 1. The recorded list gives exactly these values for the eight
 *   supported pairs (EUR_USD, GBP_USD, USD_JPY, AUD_USD, USD_CAD, USD_CHF, EUR_GBP, EUR_JPY).
 * - Margin: the recorded (2017, non-EU) account shows marginRate 0.02 for all eight; OANDA sets it by
 *   division. We use the stricter EU retail limits (ESMA product intervention, Decision (EU) 2018/796,
 *   kept by national regulators): 30:1 = 0.0333 for pairs of two major currencies (USD, EUR, JPY, GBP,
 *   CAD, CHF), 20:1 = 0.05 for the others (AUD_USD). A broker's own instrument list wins when at hand.
 * - Lots = units / 100 000 (DESIGN.md §6).
 * When a broker instrument list is at hand, prefer its values (`displayPrecision`, `pipLocation`, `marginRate`).
 */
import { Decimal } from "./decimal";

/**
 * Pairs the product supports (issue 12: the pairs people trade), majors first. The settings' '*'
 * means all of them; the bot skips those the broker account does not offer (core/trading/tick.ts).
 */
export const SUPPORTED_INSTRUMENTS = ["EUR_USD", "GBP_USD", "USD_JPY", "AUD_USD", "USD_CAD", "USD_CHF", "EUR_GBP", "EUR_JPY"] as const;
export type SupportedInstrument = (typeof SUPPORTED_INSTRUMENTS)[number];

/** Timeframes (OANDA granularities) the AI chooses among (PRODUCT.md §9). */
export const AI_TIMEFRAMES = ["M5", "M15", "M30", "H1"] as const;
export type Timeframe = (typeof AI_TIMEFRAMES)[number];

/** Length of one candle of a granularity, in seconds. */
export const GRANULARITY_SECONDS: Record<string, number> = {
  S5: 5, S10: 10, S15: 15, S30: 30, M1: 60, M2: 120, M3: 180, M4: 240, M5: 300, M10: 600, M15: 900,
  M30: 1800, H1: 3600, H2: 7200, H3: 10800, H4: 14400, H6: 21600, H8: 28800, H12: 43200, D: 86400,
};

/** Units in one standard lot (PRODUCT.md §9 "Lot divisor 100000"). */
export const UNITS_PER_LOT = 100_000;

const THREE_DECIMAL_QUOTES = new Set(["JPY", "THB", "INR", "HUF"]);
/** ESMA "major currencies": a pair of two of them gets 30:1 retail leverage, any other FX pair 20:1. */
const ESMA_MAJOR_CURRENCIES = new Set(["USD", "EUR", "JPY", "GBP", "CAD", "CHF"]);
/** Margin rate of a pair of two ESMA major currencies (30:1). */
export const MAJOR_MARGIN_RATE = "0.0333";
/** Margin rate of any other FX pair (20:1). */
export const MINOR_MARGIN_RATE = "0.05";

export interface InstrumentSpec {
  name: string;
  base: string;
  quote: string;
  /** Decimal places of prices, e.g. 5 for EUR_USD, 3 for USD_JPY. */
  displayPrecision: number;
  /** Pip = 10^pipLocation, e.g. -4 → 0.0001. */
  pipLocation: number;
  /** Margin rate as a decimal string, e.g. "0.0333" (30:1 leverage). */
  marginRate: string;
  /** Decimal places of units: 0 for every FX pair (whole units). */
  tradeUnitsPrecision: number;
}

/**
 * Facts for an `XXX_YYY` FX instrument.
 * @throws Error when the name is not of the form `XXX_YYY`.
 */
export function instrumentSpec(name: string): InstrumentSpec {
  const known = specs.get(name);
  if (known) return known;
  const m = /^([A-Z]{3})_([A-Z]{3})$/.exec(name);
  if (!m) throw new Error(`Instrumento inválido: ${name}`);
  const [, base, quote] = m as unknown as [string, string, string];
  const three = THREE_DECIMAL_QUOTES.has(quote);
  const spec: InstrumentSpec = Object.freeze({
    name,
    base,
    quote,
    displayPrecision: three ? 3 : 5,
    pipLocation: three ? -2 : -4,
    marginRate: ESMA_MAJOR_CURRENCIES.has(base) && ESMA_MAJOR_CURRENCIES.has(quote) ? MAJOR_MARGIN_RATE : MINOR_MARGIN_RATE,
    tradeUnitsPrecision: 0,
  });
  specs.set(name, spec);
  return spec;
}

/** Specs and pip sizes per instrument name, made once (asked on every quote, stop and spread). */
const specs = new Map<string, InstrumentSpec>();
const pips = new Map<string, Decimal>();

/** Pip size as a Decimal: 0.0001, or 0.01 for JPY pairs. */
export function pipSize(instrument: string): Decimal {
  let pip = pips.get(instrument);
  if (!pip) {
    pip = new Decimal(10).pow(instrumentSpec(instrument).pipLocation);
    pips.set(instrument, pip);
  }
  return pip;
}

/** Price formatted to the instrument's precision, as OANDA wants it on the wire ("1.10000"). */
export function formatPrice(instrument: string, price: Decimal.Value): string {
  return new Decimal(price).toDecimalPlaces(instrumentSpec(instrument).displayPrecision, Decimal.ROUND_HALF_UP)
    .toFixed(instrumentSpec(instrument).displayPrecision);
}

/** True when `name` is one of SUPPORTED_INSTRUMENTS. */
export function isSupportedInstrument(name: string): name is SupportedInstrument {
  return (SUPPORTED_INSTRUMENTS as readonly string[]).includes(name);
}

/** Lots from units (signed or not), e.g. "-25000" → 0.25 lots (absolute value). */
export function unitsToLots(units: Decimal.Value): Decimal {
  return new Decimal(units).abs().div(UNITS_PER_LOT);
}

/** Normalises timeframe labels: "15m" → "M15", "1h" → "H1", "D" → "D1" (PRODUCT.md §5 Display). */
export function normaliseTimeframeLabel(label: string): string {
  const s = label.trim();
  const m = /^(\d+)\s*([mhdMHD])$/.exec(s);
  if (m) return `${m[2]!.toUpperCase()}${m[1]}`;
  if (s === "D") return "D1";
  return s.toUpperCase();
}

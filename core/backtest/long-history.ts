/**
 * The long history for the on-screen backtest (issue 21): H1 candles of the BID side, 2003–2022 for
 * EUR_USD and 2012-11 → 2022 for the other pairs (format and provenance in the folder's SOURCE.md,
 * `../shared/data/fx-long` by default, read in place by app/services/backtest/long-history.server.ts).
 * The product trades MID candles (the simulator quotes bid/ask around the mid, core/simulator/pricing.ts),
 * so a bid bar becomes a mid bar by adding half the simulator's normal spread of the pair
 * (BASE_SPREAD_PIPS / 2 × pip). Pure: the files are read by the server.
 */
import type { Candle } from "../candles";
import type { CandlesByTimeframe } from "../engine/decide";
import { instrumentSpec, pipSize } from "../instruments";
import { BASE_SPREAD_PIPS } from "../simulator/pricing";
import type { TradingSettings } from "../settings";

/** Candles before the period that warm the indicators up, days (≥ MIN_CANDLES + ATR_MEDIAN_WINDOW H1 bars). */
export const LONG_WARMUP_DAYS = 21;

/** Compact columns of one parsed series (48 bytes a bar): times (ms, bar open) and mid OHLC and volume. */
export interface CandleColumns {
  t: Float64Array;
  o: Float64Array;
  h: Float64Array;
  l: Float64Array;
  c: Float64Array;
  v: Float64Array;
}

/** Half the simulator's normal spread of a pair, in price units (e.g. EUR_USD 1.0 pip → 0.00005). */
export function halfSpread(instrument: string): number {
  return (Number(BASE_SPREAD_PIPS[instrument] ?? "2.0") * pipSize(instrument).toNumber()) / 2;
}

/**
 * Bid candles → mid candles in compact columns: every price + halfSpread(instrument), rounded to 9
 * decimals (the nearest double to the decimal sum: the files carry ≤ 5 decimals, the half spread ≤ 4),
 * so a price that reaches an order is the decimal it reads as (ADR 0003).
 */
export function bidToMidColumns(instrument: string, bid: readonly Candle[]): CandleColumns {
  instrumentSpec(instrument); // throws for an unknown instrument
  const half = halfSpread(instrument);
  const mid = (x: number) => Math.round((x + half) * 1e9) / 1e9;
  const n = bid.length;
  const cols: CandleColumns = { t: new Float64Array(n), o: new Float64Array(n), h: new Float64Array(n), l: new Float64Array(n), c: new Float64Array(n), v: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const b = bid[i]!;
    cols.t[i] = b.time;
    cols.o[i] = mid(b.open);
    cols.h[i] = mid(b.high);
    cols.l[i] = mid(b.low);
    cols.c[i] = mid(b.close);
    cols.v[i] = b.volume;
  }
  return cols;
}

/** Index of the first bar with time ≥ ms (binary search; n when none). */
function lowerBound(t: Float64Array, ms: number): number {
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t[mid]! < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The H1 candles of a series from `fromMs` minus LONG_WARMUP_DAYS to before `toMs` (ms, bar open
 * times), as the executor takes them (only H1: runBacktest then steps on H1).
 */
export function sliceH1(cols: CandleColumns, fromMs: number, toMs: number): CandlesByTimeframe {
  const a = lowerBound(cols.t, fromMs - LONG_WARMUP_DAYS * 86_400_000);
  const b = lowerBound(cols.t, toMs);
  const out: Candle[] = new Array(Math.max(0, b - a));
  for (let i = a; i < b; i++) {
    out[i - a] = { time: cols.t[i]!, open: cols.o[i]!, high: cols.h[i]!, low: cols.l[i]!, close: cols.c[i]!, volume: cols.v[i]!, complete: true };
  }
  return out.length ? { H1: out } : {};
}

/**
 * Pairs the account needs beside the traded ones to convert each pair's quote currency and the
 * account currency to USD (the simulator's Pricing.rate goes through X_USD or USD_X), chosen among
 * `available`: e.g. EUR_GBP in a USD account needs GBP_USD, EUR_JPY needs USD_JPY. A currency with
 * no such pair available is left out (the run then fails with the simulator's own message).
 */
export function conversionPairs(instruments: readonly string[], accountCurrency: string, available: readonly string[]): string[] {
  const have = new Set(instruments);
  const usdSide = (ccy: string) => {
    for (const name of have) {
      const s = instrumentSpec(name);
      if ((s.base === ccy && s.quote === "USD") || (s.base === "USD" && s.quote === ccy)) return true;
    }
    return false;
  };
  const extra: string[] = [];
  const needed = [...instruments.map((i) => instrumentSpec(i).quote), accountCurrency];
  for (const ccy of needed) {
    if (ccy === "USD" || usdSide(ccy)) continue;
    const pair = available.find((name) => {
      const s = instrumentSpec(name);
      return (s.base === ccy && s.quote === "USD") || (s.base === "USD" && s.quote === ccy);
    });
    if (pair) {
      have.add(pair);
      extra.push(pair);
    }
  }
  return extra;
}

/**
 * The user's settings as a long-history run uses them: the AI's timeframe fixed at H1 (automatic
 * selection off), since the history has no M5–M30 bars for the engine to read (the research's
 * "today's engine, H1 only", docs/research/PREREGISTRATION.md F7); everything else unchanged.
 */
export function onH1(settings: TradingSettings): TradingSettings {
  return { ...settings, timeframe: "H1", aiSettings: { ...settings.aiSettings, autoTimeframeSelection: false } };
}

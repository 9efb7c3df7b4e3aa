/**
 * Candle CSV files for backtests (format of /work/shared/data/fx, see its SOURCE.md):
 * `<INSTRUMENT>_<GRANULARITY>.csv`, header `time,open,high,low,close,volume`, time = bar open,
 * ISO-8601 UTC. Pure: the files are read by app/services/backtest/candle-files.ts.
 */
import { parse } from "csv-parse/sync";
import type { Candle } from "../candles";
import { AI_TIMEFRAMES, GRANULARITY_SECONDS } from "../instruments";
import type { CandlesByTimeframe } from "../engine/decide";

/**
 * Parses one candle CSV (header `time,open,high,low,close,volume`). All candles are complete.
 * @throws Error naming the line for a missing column, an invalid time or a non-finite price.
 */
export function parseCandleCsv(text: string, label = "CSV"): Candle[] {
  const rows = parse(text, { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  const out: Candle[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const time = Date.parse(r.time ?? "");
    const c: Candle = { time, open: Number(r.open), high: Number(r.high), low: Number(r.low), close: Number(r.close), volume: Number(r.volume ?? 0), complete: true };
    if (!Number.isFinite(time) || ![c.open, c.high, c.low, c.close].every(Number.isFinite)) {
      throw new Error(`${label}: linha ${i + 2} inválida (${JSON.stringify(r)})`);
    }
    out[i] = c;
  }
  return out;
}

/**
 * Aggregates candles into buckets of `seconds` aligned to the UTC epoch (M15 at :00/:15/...):
 * open = first open, high = max, low = min, close = last close, volume = sum. A source bar is put
 * in the bucket containing its open time; when the source length does not divide `seconds`
 * (M3 → M5) a few bars straddle a boundary, an approximation we accept for backtests.
 */
export function bucketCandles(candles: readonly Candle[], seconds: number): Candle[] {
  const ms = seconds * 1000;
  const out: Candle[] = [];
  let cur: Candle | undefined;
  for (const c of candles) {
    const t = Math.floor(c.time / ms) * ms;
    if (!cur || cur.time !== t) {
      cur = { time: t, open: c.open, high: c.high, low: c.low, close: c.close, volume: c.volume, complete: true };
      out.push(cur);
    } else {
      if (c.high > cur.high) cur.high = c.high;
      if (c.low < cur.low) cur.low = c.low;
      cur.close = c.close;
      cur.volume += c.volume;
    }
  }
  return out;
}

/**
 * M5/M15/M30/H1 candles of an instrument from its CSV files' texts (`granularity` → text, finest
 * file first or in any order). A missing timeframe is built by bucketing the finest finer file (an
 * exact divisor preferred), e.g. USD_JPY_M3 → M5. Reading the files is the caller's (server/cli).
 * @throws Error (Portuguese) when no usable file is given or a file is malformed.
 */
export function candlesFromCsvTexts(instrument: string, files: Record<string, { text: string; label: string }>): CandlesByTimeframe {
  const grans = Object.keys(files).filter((g) => GRANULARITY_SECONDS[g] !== undefined).sort((a, b) => GRANULARITY_SECONDS[a]! - GRANULARITY_SECONDS[b]!);
  if (grans.length === 0) throw new Error(`Nenhum arquivo ${instrument}_<GRANULARIDADE>.csv`);
  const cache = new Map<string, Candle[]>();
  const read = (g: string): Candle[] => {
    let c = cache.get(g);
    if (!c) {
      c = parseCandleCsv(files[g]!.text, files[g]!.label);
      cache.set(g, c);
    }
    return c;
  };
  const out: CandlesByTimeframe = {};
  for (const tf of AI_TIMEFRAMES) {
    if (grans.includes(tf)) {
      out[tf] = read(tf);
      continue;
    }
    const sec = GRANULARITY_SECONDS[tf]!;
    const finer = grans.filter((g) => GRANULARITY_SECONDS[g]! < sec);
    const src = finer.find((g) => sec % GRANULARITY_SECONDS[g]! === 0) ?? finer[0];
    if (src) out[tf] = bucketCandles(read(src), sec);
  }
  return out;
}

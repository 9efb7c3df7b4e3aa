/**
 * Candle files loaded once at startup, and the replay geometry of the simulator.
 *
 * Files: `<dataDir>/<INSTRUMENT>_<GRAN>.csv` (read by server/simulator/load-market-data.ts, handed
 * here as text: core reads no files) with header `time,open,high,low,close,volume`
 * (time = bar open, ISO-8601 UTC; data/NOTICE.md). The finest file per instrument is the *path
 * source* (M5, or M3 for USD_JPY); coarser granularities come from their own file or are
 * aggregated from the path source by bar start time.
 *
 * Replay: the data window starts at `epoch` (the Sunday 00:00 UTC on or before the first bar) and
 * lasts `period` = 91 days (13 whole weeks, so weekdays line up). Past the end, the window repeats
 * shifted by whole periods. Bars are addressed by a *global index* g = cycle × n + i, whose start
 * time is `t[i] + cycle × period`, so sim time only ever moves forward through the data.
 *
 * Prices are held as float64 parsed from the CSV's decimal text: every value has ≤ 10 significant
 * digits, so `new Decimal(x)` (which reads the shortest round-trip string) gives back the exact
 * published decimal. All arithmetic on them is done in Decimal by the callers.
 */
import Papa from "papaparse";
import type { Candle } from "../candles";
import { GRANULARITY_SECONDS, SUPPORTED_INSTRUMENTS } from "../instruments";

/** An FX instrument name as OANDA writes it (EUR_USD). */
const INSTRUMENT_NAME = /^[A-Z]{3}_[A-Z]{3}$/;

/** Supported instruments first, in their table order, then any others alphabetically. */
function bySupportedOrder(a: string, b: string): number {
  const rank = (n: string) => {
    const i = (SUPPORTED_INSTRUMENTS as readonly string[]).indexOf(n);
    return i < 0 ? SUPPORTED_INSTRUMENTS.length : i;
  };
  return rank(a) - rank(b) || a.localeCompare(b);
}

/** One granularity of one instrument, columnar. Times are bar starts (epoch ms, within one period). */
export interface Series {
  gran: string;
  durMs: number;
  n: number;
  t: Float64Array;
  o: Float64Array;
  h: Float64Array;
  l: Float64Array;
  c: Float64Array;
  v: Float64Array;
}

/** One bar at a global index, with its start shifted into sim time. */
export interface Bar {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

interface InstrumentData {
  src: Series;
  series: Map<string, Series>;
}

/** Length of one replay window: 13 weeks (91 days), in ms. */
export const PERIOD_MS = 91 * 86_400_000;
/** A hole between bars longer than this is "market closed"; shorter holes keep the last price tradeable. */
export const MAX_OPEN_GAP_MS = 60 * 60_000;
/** Granularities served by the candles endpoint (aggregated when no file exists). */
export const CANDLE_GRANULARITIES = ["M5", "M10", "M15", "M30", "H1", "H2", "H3", "H4", "H6", "H8", "H12"];

/** One candle file's content: `text` is the CSV, `name` labels errors (e.g. the file path). */
export interface CandleCsv {
  instrument: string;
  granularity: string;
  text: string;
  name?: string;
}

/** The columns of a candle file, by header name (data/NOTICE.md); `volume` may be absent. */
const CSV_COLUMNS = ["time", "open", "high", "low", "close", "volume"] as const;

/**
 * Parses one candle file (header `time,open,high,low,close,volume`, columns found by name; `#` comment
 * lines and blank lines skipped) with papaparse into columns (ADR 0026: about 2-4x faster than
 * csv-parse with `columns: true` on the shipped data, the largest step of a boot in mode sim).
 * @throws Error for an unknown granularity, a missing column, a bad time or times not increasing
 */
export function readSeries(text: string, gran: string, file: string): Series {
  const durMs = (GRANULARITY_SECONDS[gran] ?? 0) * 1000;
  if (!durMs) throw new Error(`Unknown granularity ${gran} (${file})`);
  const rows = Papa.parse<string[]>(text, { skipEmptyLines: "greedy", comments: "#" }).data;
  const header = (rows[0] ?? []).map((h) => h.trim());
  const col = CSV_COLUMNS.map((c) => header.indexOf(c));
  for (const [k, c] of CSV_COLUMNS.entries()) if (col[k]! < 0 && c !== "volume") throw new Error(`${file}: no column ${c}`);
  const [ct, co, ch, cl, cc, cv] = col as [number, number, number, number, number, number];
  const n = Math.max(0, rows.length - 1);
  const s: Series = {
    gran, durMs, n,
    t: new Float64Array(n), o: new Float64Array(n), h: new Float64Array(n), l: new Float64Array(n), c: new Float64Array(n), v: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const r = rows[i + 1]!;
    const t = Date.parse(r[ct] ?? "");
    if (!Number.isFinite(t)) throw new Error(`${file}: bad time on row ${i + 2}`);
    if (i > 0 && t <= s.t[i - 1]!) throw new Error(`${file}: times not increasing on row ${i + 2}`);
    s.t[i] = t;
    s.o[i] = Number(r[co]);
    s.h[i] = Number(r[ch]);
    s.l[i] = Number(r[cl]);
    s.c[i] = Number(r[cc]);
    s.v[i] = cv < 0 ? 0 : Number(r[cv] ?? 0);
  }
  return s;
}

function seriesFromCandles(candles: readonly Candle[], gran: string): Series {
  const durMs = (GRANULARITY_SECONDS[gran] ?? 0) * 1000;
  if (!durMs) throw new Error(`Granularidade desconhecida: ${gran}`);
  const n = candles.length;
  const s: Series = {
    gran, durMs, n,
    t: new Float64Array(n), o: new Float64Array(n), h: new Float64Array(n), l: new Float64Array(n), c: new Float64Array(n), v: new Float64Array(n),
  };
  candles.forEach((x, i) => {
    s.t[i] = x.time; s.o[i] = x.open; s.h[i] = x.high; s.l[i] = x.low; s.c[i] = x.close; s.v[i] = x.volume;
  });
  return s;
}

/** Aggregates a series into `gran` buckets aligned to the UTC epoch, by bar start time. */
export function aggregate(src: Series, gran: string): Series {
  const durMs = (GRANULARITY_SECONDS[gran] ?? 0) * 1000;
  const t: number[] = [], o: number[] = [], h: number[] = [], l: number[] = [], c: number[] = [], v: number[] = [];
  for (let i = 0; i < src.n; i++) {
    const b = Math.floor(src.t[i]! / durMs) * durMs;
    const k = t.length - 1;
    if (k >= 0 && t[k] === b) {
      h[k] = Math.max(h[k]!, src.h[i]!);
      l[k] = Math.min(l[k]!, src.l[i]!);
      c[k] = src.c[i]!;
      v[k] = v[k]! + src.v[i]!;
    } else {
      t.push(b); o.push(src.o[i]!); h.push(src.h[i]!); l.push(src.l[i]!); c.push(src.c[i]!); v.push(src.v[i]!);
    }
  }
  return {
    gran, durMs, n: t.length, t: Float64Array.from(t), o: Float64Array.from(o), h: Float64Array.from(h),
    l: Float64Array.from(l), c: Float64Array.from(c), v: Float64Array.from(v),
  };
}

/** Index of the last element ≤ x in a sorted array, or −1. */
function lastAtOrBefore(a: Float64Array, x: number): number {
  let lo = 0, hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** All candle data of the simulator, loaded once. */
export class MarketData {
  private constructor(
    private readonly data: Map<string, InstrumentData>,
    /** Start of the replay window (Sunday 00:00 UTC), epoch ms. */
    readonly epoch: number,
    /** Length of the replay window, ms (PERIOD_MS for the simulator; the whole data for a backtest). */
    readonly period: number = PERIOD_MS,
  ) {}

  /**
   * Builds the market from the CSV texts of whatever instruments are given (one entry per
   * instrument and granularity; entries with an instrument name not of the form XXX_YYY or an
   * unknown granularity are ignored). The simulator offers exactly these instruments: GET
   * A/instruments lists them and pricing/candles answer OANDA's 400 for any other (issue 12).
   * @param source where the files came from, for error messages (e.g. the folder)
   * @throws Error when no instrument has a file, or a file is malformed or outside one 91-day window
   */
  static fromCsv(files: readonly CandleCsv[], source = "the candle files"): MarketData {
    const usable = files.filter((f) => INSTRUMENT_NAME.test(f.instrument) && GRANULARITY_SECONDS[f.granularity] !== undefined);
    return MarketData.fromSeries(
      usable.map((f) => ({ instrument: f.instrument, series: readSeries(f.text, f.granularity, f.name ?? `${f.instrument}_${f.granularity}.csv`) })),
      source,
    );
  }

  /**
   * The same market from series already parsed (`readSeries`, or a cached copy of them: server/simulator/load-market-data.ts).
   * Series of an instrument name not of the form XXX_YYY are ignored; the finest series of an instrument is its path source.
   * @throws Error when no instrument has a series, or a series is outside one 91-day window
   */
  static fromSeries(entries: readonly { instrument: string; series: Series }[], source = "the candle files"): MarketData {
    const data = new Map<string, InstrumentData>();
    const names = [...new Set(entries.filter((f) => INSTRUMENT_NAME.test(f.instrument)).map((f) => f.instrument))].sort(bySupportedOrder);
    for (const name of names) {
      const mine = entries.filter((f) => f.instrument === name).map((f) => f.series);
      if (mine.length === 0) continue;
      mine.sort((a, b) => a.durMs - b.durMs);
      const series = new Map<string, Series>();
      for (const s of mine) series.set(s.gran, s);
      data.set(name, { src: mine[0]!, series });
    }
    if (data.size === 0) throw new Error(`No candle file in ${source}`);
    const first = Math.min(...[...data.values()].map((d) => d.src.t[0]!));
    const day = Math.floor(first / 86_400_000) * 86_400_000;
    const epoch = day - new Date(day).getUTCDay() * 86_400_000;
    for (const [name, d] of data) {
      for (const s of d.series.values()) {
        if (s.t[s.n - 1]! >= epoch + PERIOD_MS) throw new Error(`${name} ${s.gran}: data longer than one 91-day window`);
      }
    }
    return new MarketData(data, epoch);
  }

  /**
   * A market of any instruments from candle arrays (the backtest's data; ascending, incomplete
   * candles dropped). The finest granularity given is the path source; the replay window covers
   * the whole data plus a week, so a run over the data never wraps around.
   * @throws Error when no instrument has candles, or a granularity is unknown
   */
  static fromCandles(byInstrument: Readonly<Record<string, Partial<Record<string, readonly Candle[]>>>>): MarketData {
    const data = new Map<string, InstrumentData>();
    for (const [name, byGran] of Object.entries(byInstrument)) {
      const grans = Object.keys(byGran)
        .filter((g) => (byGran[g]?.some((c) => c.complete) ?? false))
        .sort((a, b) => (GRANULARITY_SECONDS[a] ?? NaN) - (GRANULARITY_SECONDS[b] ?? NaN));
      if (grans.length === 0) continue;
      const series = new Map<string, Series>();
      for (const g of grans) series.set(g, seriesFromCandles(byGran[g]!.filter((c) => c.complete), g));
      data.set(name, { src: series.get(grans[0]!)!, series });
    }
    if (data.size === 0) throw new Error("Sem candles para o backtest");
    const first = Math.min(...[...data.values()].map((d) => d.src.t[0]!));
    const last = Math.max(...[...data.values()].map((d) => d.src.t[d.src.n - 1]!));
    const day = Math.floor(first / 86_400_000) * 86_400_000;
    const epoch = day - new Date(day).getUTCDay() * 86_400_000;
    const week = 7 * 86_400_000;
    return new MarketData(data, epoch, (Math.ceil((last - epoch) / week) + 1) * week);
  }

  /** Instruments with data. */
  get instruments(): string[] {
    return [...this.data.keys()];
  }

  /** True when the instrument has data. */
  has(instrument: string): boolean {
    return this.data.has(instrument);
  }

  /** The path-source series (finest file) of an instrument. @throws Error for an unknown instrument */
  source(instrument: string): Series {
    const d = this.data.get(instrument);
    if (!d) throw new Error(`No data for ${instrument}`);
    return d.src;
  }

  /**
   * Series for a candle granularity: its file when shipped, else aggregated from the path source
   * (cached). Undefined when `gran` is not in CANDLE_GRANULARITIES or finer than the source.
   */
  series(instrument: string, gran: string): Series | undefined {
    const d = this.data.get(instrument);
    if (!d) return undefined;
    const have = d.series.get(gran);
    if (have) return have;
    const sec = GRANULARITY_SECONDS[gran];
    if (!CANDLE_GRANULARITIES.includes(gran) || !sec || sec * 1000 < d.src.durMs || 86_400 % sec !== 0) return undefined;
    const agg = aggregate(d.src, gran);
    d.series.set(gran, agg);
    return agg;
  }

  /** Start (sim epoch ms) of the bar at global index g. */
  barStart(s: Series, g: number): number {
    const k = Math.floor(g / s.n);
    return s.t[g - k * s.n]! + k * this.period;
  }

  /** The bar at global index g (g ≥ 0), start shifted into sim time. */
  bar(s: Series, g: number): Bar {
    const k = Math.floor(g / s.n);
    const i = g - k * s.n;
    return { t: s.t[i]! + k * this.period, o: s.o[i]!, h: s.h[i]!, l: s.l[i]!, c: s.c[i]!, v: s.v[i]! };
  }

  /** Global index of the last bar starting at or before sim time `ms`; −1 when before the data. */
  indexAtOrBefore(s: Series, ms: number): number {
    if (ms < this.epoch) return -1;
    const k = Math.floor((ms - this.epoch) / this.period);
    const g = k * s.n + lastAtOrBefore(s.t, ms - k * this.period);
    return g < 0 ? -1 : g;
  }

  /**
   * Market status of an instrument at sim time `ms`: open inside a path bar, or inside a hole
   * between bars of at most MAX_OPEN_GAP_MS (no ticks, price kept); closed otherwise (weekends,
   * holidays, before the data).
   */
  isOpen(instrument: string, ms: number): boolean {
    const s = this.source(instrument);
    const g = this.indexAtOrBefore(s, ms);
    if (g < 0) return false;
    const end = this.barStart(s, g) + s.durMs;
    if (ms < end) return true;
    return this.barStart(s, g + 1) - end <= MAX_OPEN_GAP_MS;
  }
}

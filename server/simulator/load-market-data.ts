/**
 * Reads the simulator's candle folder (`<dir>/<INSTRUMENT>_<GRAN>.csv`, data/NOTICE.md) and builds
 * the pure `MarketData` of core/simulator from the texts (core reads no files: DESIGN.md §2).
 * Used by the simulator server, the backtest CLI and the benchmarks.
 *
 * With a `cacheDir` (the app passes `DATA_DIR`), the parsed columns are also kept there as one
 * binary file (`market-data-<key>.bin`, key = the files' names, sizes and modification times), read
 * back by the next boot instead of parsing ~6 MB of CSV again (issue 13, cold start: the parse was
 * the largest step of a boot in mode sim). Format: uint32 LE header length, the JSON header
 * `{v, source, entries: [{instrument, gran, n}]}` padded to 8 bytes, then per entry the six float64
 * columns t, o, h, l, c, v (n values each, the machine's byte order: the cache never leaves it). A
 * cache that cannot be read or written is ignored (the CSV is parsed).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseCandleFileName } from "../../core/candle-file-name";
import { GRANULARITY_SECONDS } from "../../core/instruments";
import { MarketData, readSeries, type CandleCsv, type Series } from "../../core/simulator/market-data";

/** Cache format version (bump when the layout or the parsing changes). */
const CACHE_VERSION = 1;
const COLUMNS = ["t", "o", "h", "l", "c", "v"] as const;

interface Entry {
  instrument: string;
  series: Series;
}

/**
 * Loads every `<INSTRUMENT>_<GRAN>.csv` in `dir` (names read by core/candle-file-name.ts; any FX
 * pair: the simulator replays whatever candle files it is given and offers only those instruments).
 * `cacheDir`: where to keep (and look for) the parsed form (module doc).
 * @throws Error when no file is there, or a file is malformed or outside one 91-day window
 */
export function loadMarketData(dir: string, opts: { cacheDir?: string } = {}): MarketData {
  const found: { entry: string; instrument: string; granularity: string }[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const named = parseCandleFileName(entry);
    if (named) found.push({ entry, ...named });
  }
  const cachePath = opts.cacheDir ? join(opts.cacheDir, `market-data-${cacheKey(dir, found.map((f) => f.entry))}.bin`) : undefined;
  const cached = cachePath ? readCache(cachePath) : undefined;
  if (cached) return MarketData.fromSeries(cached, dir);

  const files: CandleCsv[] = found.map((f) => ({ instrument: f.instrument, granularity: f.granularity, text: readFileSync(join(dir, f.entry), "utf8"), name: join(dir, f.entry) }));
  if (!cachePath) return MarketData.fromCsv(files, dir);
  const entries: Entry[] = files
    .filter((f) => GRANULARITY_SECONDS[f.granularity] !== undefined)
    .map((f) => ({ instrument: f.instrument, series: readSeries(f.text, f.granularity, f.name!) }));
  const market = MarketData.fromSeries(entries, dir); // validates before anything is cached
  writeCache(cachePath, opts.cacheDir!, entries);
  return market;
}

/** A short hash of the candle files' names, sizes and modification times (and the format version). */
function cacheKey(dir: string, entries: string[]): string {
  const parts = entries.map((e) => {
    const st = statSync(join(dir, e));
    return [e, st.size, st.mtimeMs];
  });
  return createHash("sha256").update(JSON.stringify([CACHE_VERSION, parts])).digest("hex").slice(0, 16);
}

/** The cached series, or undefined when absent, of another version or unreadable. */
function readCache(file: string): Entry[] | undefined {
  try {
    const buf = readFileSync(file);
    const headerLength = buf.readUInt32LE(0);
    const header = JSON.parse(buf.toString("utf8", 4, 4 + headerLength)) as { v: number; entries: { instrument: string; gran: string; n: number }[] };
    if (header.v !== CACHE_VERSION) return undefined;
    // A copy that starts at offset 0 of its own ArrayBuffer, so float64 views are aligned.
    const data = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
    let off = align8(4 + headerLength);
    const out: Entry[] = [];
    for (const e of header.entries) {
      const durMs = (GRANULARITY_SECONDS[e.gran] ?? 0) * 1000;
      if (!durMs) return undefined;
      const cols = {} as Record<(typeof COLUMNS)[number], Float64Array>;
      for (const k of COLUMNS) {
        if (off + e.n * 8 > data.byteLength) return undefined;
        cols[k] = new Float64Array(data, off, e.n);
        off += e.n * 8;
      }
      out.push({ instrument: e.instrument, series: { gran: e.gran, durMs, n: e.n, ...cols } });
    }
    return off === data.byteLength ? out : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the cache (a temporary file renamed into place) and removes older cache files; failures are ignored. */
function writeCache(file: string, dir: string, entries: Entry[]): void {
  try {
    const header = Buffer.from(JSON.stringify({ v: CACHE_VERSION, entries: entries.map((e) => ({ instrument: e.instrument, gran: e.series.gran, n: e.series.n })) }), "utf8");
    const start = align8(4 + header.length);
    const total = start + entries.reduce((a, e) => a + e.series.n * 8 * COLUMNS.length, 0);
    const buf = Buffer.alloc(total);
    buf.writeUInt32LE(header.length, 0);
    header.copy(buf, 4);
    let off = start;
    for (const e of entries)
      for (const k of COLUMNS) {
        const col = e.series[k];
        Buffer.from(col.buffer, col.byteOffset, col.byteLength).copy(buf, off);
        off += col.byteLength;
      }
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, buf);
    renameSync(tmp, file);
    for (const old of readdirSync(dir)) if (/^market-data-[0-9a-f]+\.bin$/.test(old) && join(dir, old) !== file) rmSync(join(dir, old), { force: true });
  } catch {
    // No cache: the next boot parses the CSV again.
  }
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

/**
 * A long-history folder for tests (issue 21): `<PAIR>_H1.csv` files in the format of
 * ../shared/data/fx-long (header `time,open,high,low,close,volume`, ISO-8601 UTC, BID prices),
 * written into a temp dir — the real shared folder is never read by the unit tests. Prices are a
 * seeded random walk with slow trends (so the engine finds entries), weekends closed as the market
 * is (Friday 21:00 → Sunday 22:00 UTC).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mulberry32 } from "../../core/backtest/baseline";

const HOUR = 3_600_000;

/** True for an H1 bar that opens while the market is closed (Friday ≥ 21:00 to Sunday < 22:00 UTC). */
function weekend(ms: number): boolean {
  const d = new Date(ms);
  const day = d.getUTCDay();
  const h = d.getUTCHours();
  return day === 6 || (day === 5 && h >= 21) || (day === 0 && h < 22);
}

/** CSV text of H1 bid bars from `from` (inclusive) to `to` (exclusive), ISO days, starting at `start`. */
export function h1Csv(from: string, to: string, start: number, decimals: number, seed = 7): string {
  const rnd = mulberry32(seed);
  const vol = start * 0.0012;
  const lines = ["time,open,high,low,close,volume"];
  let px = start;
  let drift = 0;
  for (let t = Date.parse(from); t < Date.parse(to); t += HOUR) {
    if (weekend(t)) continue;
    if (rnd() < 0.01) drift = (rnd() - 0.5) * vol * 0.6; // a new slow trend now and then
    const open = px;
    const close = open + drift + (rnd() - 0.5) * vol;
    const high = Math.max(open, close) + rnd() * vol * 0.5;
    const low = Math.min(open, close) - rnd() * vol * 0.5;
    px = close;
    const f = (x: number) => x.toFixed(decimals);
    lines.push(`${new Date(t).toISOString().replace(".000Z", "Z")},${f(open)},${f(high)},${f(low)},${f(close)},${Math.floor(rnd() * 1000)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Writes a fixture folder and returns its path: `pairs` → [first day, day after the last, start price, decimals]. */
export function writeLongFixture(pairs: Record<string, [string, string, number, number]>, dir = mkdtempSync(path.join(os.tmpdir(), "fx-long-"))): string {
  mkdirSync(dir, { recursive: true });
  let seed = 1;
  for (const [pair, [from, to, start, decimals]] of Object.entries(pairs)) {
    writeFileSync(path.join(dir, `${pair}_H1.csv`), h1Csv(from, to, start, decimals, seed++));
  }
  writeFileSync(path.join(dir, "SOURCE.md"), "# Test fixture: synthetic H1 bid candles\n");
  return dir;
}

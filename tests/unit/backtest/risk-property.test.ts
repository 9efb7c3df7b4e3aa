/**
 * Property (issue 7): random price paths driven through the backtest (the live bot's risk gate and
 * risk counters) never place an entry while a limit is breached. Entries are random (the baseline
 * policy) so the gate is asked often; every trade is then checked against counters recomputed here
 * independently from the trade list.
 */
import { describe, expect, it } from "vitest";
import type { Candle } from "../../../core/candles";
import { Decimal } from "../../../core/decimal";
import { mulberry32 } from "../../../core/backtest/baseline";
import { runBacktest } from "../../../core/backtest/run";
import { MAX_CONSECUTIVE_LOSSES } from "../../../core/risk";
import { marketCloseWindow, withinTradingHours } from "../../../core/risk/market-hours";
import { nextTradingDayStart, tradingDayStart } from "../../../core/risk/trading-day";
import { defaultSettings } from "../../../core/settings";
import { edgeEverywhere } from "../../support/edge-tables";

const TZ = "America/Sao_Paulo";

/** M5/M15/M30/H1 mid candles of a random walk on weekdays (the FX week), from 2026-01-05. */
function randomPath(seed: number, weeks: number) {
  const rnd = mulberry32(seed);
  const m5: Candle[] = [];
  let price = 1.1;
  const start = Date.UTC(2025, 11, 22); // two weeks of warm-up before 2026-01-05
  for (let t = start; t < start + (weeks + 2) * 7 * 86_400_000; t += 300_000) {
    const day = new Date(t).getUTCDay();
    const hour = new Date(t).getUTCHours();
    if (day === 6 || (day === 0 && hour < 22) || (day === 5 && hour >= 22)) continue;
    const vol = 0.0004 * (0.5 + rnd());
    const open = price;
    const close = Math.max(0.5, open + (rnd() - 0.5) * 2 * vol);
    const high = Math.max(open, close) + rnd() * vol;
    const low = Math.min(open, close) - rnd() * vol;
    m5.push({ time: t, open: +open.toFixed(5), high: +high.toFixed(5), low: +low.toFixed(5), close: +close.toFixed(5), volume: 10, complete: true });
    price = close;
  }
  const bucket = (sec: number): Candle[] => {
    const out: Candle[] = [];
    for (const c of m5) {
      const t = Math.floor(c.time / (sec * 1000)) * sec * 1000;
      const last = out[out.length - 1];
      if (!last || last.time !== t) out.push({ ...c, time: t });
      else Object.assign(last, { high: Math.max(last.high, c.high), low: Math.min(last.low, c.low), close: c.close, volume: last.volume + c.volume });
    }
    return out;
  };
  return { M5: m5, M15: bucket(900), M30: bucket(1800), H1: bucket(3600) };
}

describe("risk limits hold on random price paths", () => {
  it("no entry is placed while a limit is breached (30 random paths)", { timeout: 300_000 }, async () => {
    const settings = defaultSettings();
    Object.assign(settings, { maxDailyTrades: 4, dailyLossLimitPct: 1, maxDrawdownPct: 4 });
    settings.aiSettings.cooldownSec = 900;
    settings.tradingHours = { enabled: true, start: "05:00", end: "18:00", days: [1, 2, 3, 4, 5] };
    settings.weekend = { mode: "no_entry", minutesBeforeClose: 240 };
    let checked = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const r = await runBacktest({
        instruments: ["EUR_USD"], candles: { EUR_USD: randomPath(seed, 3) }, settings, from: "2026-01-05T00:00:00Z",
        initialBalance: "10000", accountCurrency: "USD", timezone: TZ, edgeGate: edgeEverywhere(),
        entry: { kind: "random", probability: 0.3, random: mulberry32(1000 + seed) },
      });
      const trades = r.trades;
      for (let i = 0; i < trades.length; i++) {
        const t = trades[i]!;
        const at = new Date(t.entryTime);
        const dayStart = tradingDayStart(at, TZ).toISOString();
        const closed = trades.slice(0, i).filter((x) => x.exitTime <= t.entryTime);
        const balance = closed.reduce((a, x) => a.add(x.pnl), new Decimal(10000));
        let peak = new Decimal(10000);
        let running = new Decimal(10000);
        for (const x of closed) {
          running = running.add(x.pnl);
          peak = Decimal.max(peak, running);
        }
        const realizedToday = closed.filter((x) => x.exitTime >= dayStart).reduce((a, x) => a.add(x.pnl), new Decimal(0));
        const openedToday = trades.slice(0, i).filter((x) => x.entryTime >= dayStart).length;
        const prev = trades[i - 1];
        const lastStop = r.stops.filter((s) => s.time < t.entryTime).pop();
        const runStart = lastStop ? nextTradingDayStart(new Date(lastStop.time), TZ).toISOString() : "";
        let streak = 0;
        for (const x of [...closed].reverse()) {
          if (x.exitTime < runStart || Number(x.pnl) > 0) break;
          if (Number(x.pnl) < 0) streak++;
        }
        const where = `seed ${seed} trade ${t.entryTime}`;
        expect(openedToday, where).toBeLessThan(settings.maxDailyTrades);
        expect(realizedToday.neg().div(balance.sub(realizedToday)).mul(100).lt(settings.dailyLossLimitPct), where).toBe(true);
        expect(peak.sub(balance).div(peak).mul(100).lt(settings.maxDrawdownPct), where).toBe(true);
        if (prev) expect(Date.parse(t.entryTime) - Date.parse(prev.entryTime), where).toBeGreaterThanOrEqual(settings.aiSettings.cooldownSec * 1000);
        expect(withinTradingHours(at, settings.tradingHours, TZ), where).toBe(true);
        expect(marketCloseWindow(at, settings).noEntry, where).toBe(false);
        expect(streak, where).toBeLessThan(MAX_CONSECUTIVE_LOSSES);
        checked++;
      }
    }
    // the property was exercised: many entries, and the limits did bite
    expect(checked).toBeGreaterThan(100);
  });
});

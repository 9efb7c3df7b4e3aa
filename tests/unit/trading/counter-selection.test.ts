/**
 * Which trades feed the risk counters (core/trading/counters.ts selectCounterTrades): the one rule
 * the live bot and the backtest share (issue 23). A losing streak older than today still counts,
 * today's trades all count, and the cooldown sees the newest opening even when it is old.
 */
import { describe, expect, it } from "vitest";
import { selectCounterTrades, STREAK_WINDOW, type CounterTrade } from "../../../core/trading/counters";

const at = (h: number) => new Date(Date.UTC(2024, 0, 10, 0, 0) + h * 3_600_000);
const dayStart = at(0);

describe("selectCounterTrades", () => {
  it("keeps today's trades, the newest closed ones and the newest opened; drops older closed trades beyond the window", () => {
    const old: CounterTrade[] = Array.from({ length: STREAK_WINDOW + 5 }, (_, i) => ({ openTime: at(-200 + i), closeTime: at(-150 + i), realizedPL: "-1" }));
    const today: CounterTrade = { openTime: at(2), closeTime: at(3), realizedPL: "5" };
    const openedBefore: CounterTrade = { openTime: at(-1), closeTime: null, realizedPL: null };
    const byOpen = [...old, openedBefore, today];
    const byClose = [...old, today];
    const kept = selectCounterTrades(byOpen, byClose, dayStart);
    expect(kept).toContain(today);
    expect(kept).not.toContain(openedBefore); // opened before the day, still open, not the newest opened
    expect(kept.filter((t) => old.includes(t))).toHaveLength(STREAK_WINDOW - 1); // the window holds today's close too
    expect(kept).not.toContain(old[0]);
  });

  it("keeps the newest opened trade for the cooldown even when it opened before the trading day", () => {
    const last: CounterTrade = { openTime: at(-3), closeTime: null, realizedPL: null };
    expect(selectCounterTrades([last], [], dayStart)).toEqual([last]);
  });
});

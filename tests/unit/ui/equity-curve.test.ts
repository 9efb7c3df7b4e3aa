/**
 * The dashboard's balance curve (app/lib/equity-curve.ts): cumulative realized P&L anchored on the current
 * balance, exact decimals (no float drift), close-time order, one point per second, skipped bad rows.
 */
import { describe, expect, it } from "vitest";
import { equityCurve } from "../../../app/lib/equity-curve";

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

describe("equityCurve", () => {
  it("ends at the current balance and steps back by each trade's P&L, in close order", () => {
    const points = equityCurve(
      [
        { pnl: "-5.10", closeTime: "2026-01-05T12:00:00Z", openTime: "2026-01-05T11:00:00Z" },
        { pnl: "12.35", closeTime: "2026-01-05T10:00:00Z", openTime: "2026-01-05T09:30:00Z" },
      ],
      "1007.25",
    );
    expect(points.map((p) => p.balance)).toEqual(["1000.00", "1012.35", "1007.25"]);
    expect(points.map((p) => p.time)).toEqual([at("2026-01-05T09:30:00Z"), at("2026-01-05T10:00:00Z"), at("2026-01-05T12:00:00Z")]);
    expect(points[2]!.value).toBe(1007.25);
  });

  it("adds decimals exactly (0.1 + 0.2 steps stay exact) and merges closes in the same second", () => {
    const trades = Array.from({ length: 10 }, (_, i) => ({ pnl: i % 2 ? "0.2" : "0.1", closeTime: new Date(Date.UTC(2026, 0, 5, 10, i)).toISOString() }));
    trades.push({ pnl: "0.01", closeTime: new Date(Date.UTC(2026, 0, 5, 10, 9)).toISOString() });
    const points = equityCurve(trades, "100.51");
    expect(points[0]!.balance).toBe("99.00");
    expect(points.at(-1)!.balance).toBe("100.51");
    expect(points).toHaveLength(11); // start + 10 distinct close seconds
    expect(new Set(points.map((p) => p.time)).size).toBe(points.length);
  });

  it("without a balance shows cumulative P&L from 0; bad rows are skipped; no trades → empty", () => {
    const points = equityCurve(
      [
        { pnl: "3", closeTime: "2026-01-05T10:00:00Z" },
        { pnl: "x", closeTime: "2026-01-05T11:00:00Z" },
        { pnl: "4", closeTime: null },
      ],
      null,
    );
    expect(points.map((p) => p.balance)).toEqual(["0.00", "3.00"]);
    expect(points[0]!.time).toBe(at("2026-01-05T10:00:00Z") - 1);
    expect(equityCurve([], "1000")).toEqual([]);
  });
});

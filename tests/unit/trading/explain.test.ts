/**
 * "Por que a IA entrou?" storage (core/trading/explain.ts): pip distances per instrument (JPY 0.01), the
 * indicator values kept (off indicators left out), and a stored row read back (old rows without the new
 * fields; a blocked verdict's message).
 */
import { describe, expect, it } from "vitest";
import { indicatorValues, pipsBetween, readDecision } from "../../../core/trading/explain";

describe("explain", () => {
  it("measures stop/target distances in pips of the instrument", () => {
    expect(pipsBetween("EUR_USD", "1.10000", "1.09850")).toBe("15.0");
    expect(pipsBetween("USD_JPY", "150.000", "150.255")).toBe("25.5");
    expect(pipsBetween("EUR_USD", null, "1.1")).toBeNull();
  });

  it("keeps finite indicator values only", () => {
    const v = indicatorValues({ rsi: 55.123456789, adx: 31, bbUpper: NaN, close: 1.0912345 } as never);
    expect(v).toEqual({ rsi: 55.12346, adx: 31, close: 1.091235 });
  });

  it("reads a stored row, recomputing distances for rows written before the extra fields", () => {
    const row = {
      decision_id: "ia-EUR_USD-M15-20260105T0815Z",
      instrument: "EUR_USD",
      side: "buy",
      confidence: "0.72",
      timeframe: "M15",
      reason: "Compra",
      reason_msg: { key: "engine:decision.buy", params: { confidence: "0.72", signal: "x" } },
      risk_code: "ok",
      risk_reason: null,
      executed: true,
      payload: { regime: { volatility: "normal", trend: "trending", reason: "r", reasonMsg: { key: "engine:regime.normal.trending", params: { timeframe: "M15" } } }, entryPrice: "1.10000", stopLoss: "1.09800", takeProfit: "1.10300" },
      created_at: new Date("2026-01-05T08:30:00Z"),
    };
    const d = readDecision(row);
    expect(d).toMatchObject({ side: "buy", confidence: 0.72, stopPips: "20.0", targetPips: "30.0", risk: { allowed: true, reason: { key: "risk:allowed" } } });
    expect(d.regime.reason).toEqual({ key: "engine:regime.normal.trending", params: { timeframe: "M15" } });
    const blocked = readDecision({ ...row, risk_code: "spread", risk_reason: "Spread", payload: { riskReasonMsg: { key: "risk:spreadTooWide" } } });
    expect(blocked.risk).toEqual({ allowed: false, code: "spread", reason: { key: "risk:spreadTooWide" } });
  });
});

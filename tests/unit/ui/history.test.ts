/** History logic (PRODUCT.md §5 History filters and Display, §9): filters, row rules, timezone days, stats, CSV. */
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import {
  applyHistoryFilters,
  CSV_HEADER,
  csvFileName,
  filtersToSearch,
  hasActiveFilters,
  historyCsv,
  historyStats,
  historyWindowDays,
  matchesSearch,
  normaliseHistoryRows,
  parseHistoryFilters,
  zonedDayStart,
  type HistoryTrade,
} from "../../../app/lib/history";

function trade(over: Partial<HistoryTrade> & { id: string }): HistoryTrade {
  return {
    accountId: "A1",
    instrument: "EUR_USD",
    side: "buy",
    units: "10000",
    openPrice: "1.08000",
    closePrice: "1.08100",
    pnl: "10.00",
    result: "WIN",
    status: "closed",
    openTime: "2026-03-10T12:00:00.000Z",
    closeTime: "2026-03-10T13:00:00.000Z",
    aiTimeframe: "M15",
    aiReason: "Tendência de alta",
    ...over,
  };
}

const TZ = "America/Sao_Paulo";

describe("parseHistoryFilters", () => {
  it("reads every filter from the query and treats blanks as no filter", () => {
    const r = parseHistoryFilters(new URLSearchParams("instrument=eur&side=SELL&result=loss&dateFrom=2026-03-01&dateTo=2026-03-10&minPnL=-5,5&maxPnL=20&q="));
    expect(r).toEqual({
      ok: true,
      filters: { instrument: "eur", side: "sell", result: "LOSS", dateFrom: "2026-03-01", dateTo: "2026-03-10", minPnL: -5.5, maxPnL: 20 },
    });
    expect(parseHistoryFilters(new URLSearchParams("side=&result=&minPnL="))).toEqual({ ok: true, filters: {} });
  });
  it("rejects bad values with a Portuguese message naming the field, keeping the valid ones", () => {
    const side = parseHistoryFilters(new URLSearchParams("side=long&instrument=GBP"));
    expect(side).toMatchObject({ ok: false, message: "side deve ser buy ou sell", field: "side", filters: { instrument: "GBP" } });
    expect(parseHistoryFilters(new URLSearchParams("minPnL=abc"))).toMatchObject({ ok: false, message: "minPnL deve ser um número" });
    expect(parseHistoryFilters(new URLSearchParams("dateFrom=2026-02-30"))).toMatchObject({ ok: false, message: "dateFrom deve ser uma data válida" });
    expect(parseHistoryFilters(new URLSearchParams("dateFrom=2026-03-10&dateTo=2026-03-01"))).toMatchObject({ ok: false, field: "dateTo" });
    expect(parseHistoryFilters(new URLSearchParams("minPnL=10&maxPnL=5"))).toMatchObject({ ok: false, message: "minPnL deve ser menor ou igual a maxPnL" });
  });
  it("round-trips through the URL and knows when it filters", () => {
    const r = parseHistoryFilters(new URLSearchParams("result=WIN&q=eur"));
    expect(r.ok && filtersToSearch(r.filters)).toBe("?q=eur&result=WIN");
    expect(filtersToSearch({})).toBe("");
    expect(hasActiveFilters({})).toBe(false);
    expect(hasActiveFilters({ q: "x" })).toBe(true);
  });
});

describe("normaliseHistoryRows", () => {
  it("excludes other accounts, keeps rows without an account id, removes duplicates by id", () => {
    const rows = [trade({ id: "1" }), trade({ id: "2", accountId: "OTHER" }), trade({ id: "3", accountId: null }), trade({ id: "1", pnl: "99" })];
    const out = normaliseHistoryRows(rows, "A1");
    expect(out.map((r) => r.id)).toEqual(["1", "3"]);
    expect(out[0]!.pnl).toBe("10.00");
  });
  it("keeps a row if closed, or pnl ≠ 0, or both prices present; fills the result from P&L", () => {
    const open = { status: "open", state: "OPEN" };
    const rows = [
      trade({ id: "closed", pnl: "0", closePrice: null }),
      trade({ id: "pnl", ...open, pnl: "-3", closePrice: null, result: null }),
      trade({ id: "prices", ...open, pnl: "0", result: null }),
      trade({ id: "drop", ...open, pnl: "0", closePrice: null, result: null }),
    ];
    const out = normaliseHistoryRows(rows, "A1");
    expect(out.map((r) => r.id)).toEqual(["closed", "pnl", "prices"]);
    expect(out[1]!.result).toBe("LOSS");
    expect(out[2]!.result).toBe("BE");
  });
});

describe("dates in the user's timezone", () => {
  it("finds local midnight (São Paulo is UTC−3)", () => {
    expect(new Date(zonedDayStart("2026-03-10", TZ)).toISOString()).toBe("2026-03-10T03:00:00.000Z");
    expect(new Date(zonedDayStart("2026-07-01", "Europe/London")).toISOString()).toBe("2026-06-30T23:00:00.000Z");
  });
  it("dateTo includes the whole end day, dateFrom starts at local midnight", () => {
    const rows = [
      trade({ id: "before", closeTime: "2026-03-10T02:59:59.000Z" }), // 09/03 23:59:59 local
      trade({ id: "start", closeTime: "2026-03-10T03:00:00.000Z" }),
      trade({ id: "late", closeTime: "2026-03-11T02:59:59.000Z" }), // 10/03 23:59:59 local
      trade({ id: "next", closeTime: "2026-03-11T03:00:00.000Z" }),
    ];
    expect(applyHistoryFilters(rows, { dateFrom: "2026-03-10", dateTo: "2026-03-10" }, TZ).map((r) => r.id)).toEqual(["start", "late"]);
  });
  it("window: the default 30 days, else enough days to reach dateFrom", () => {
    const now = Date.parse("2026-03-31T15:00:00Z");
    expect(historyWindowDays({}, TZ, now)).toBe(30);
    expect(historyWindowDays({ dateFrom: "2026-01-01" }, TZ, now)).toBe(91);
    expect(zonedDayStart("2026-01-01", TZ)).toBeGreaterThanOrEqual(now - historyWindowDays({ dateFrom: "2026-01-01" }, TZ, now) * 86_400_000);
  });
});

describe("applyHistoryFilters", () => {
  const rows = [
    trade({ id: "1", instrument: "EUR_USD", side: "buy", pnl: "10", result: "WIN" }),
    trade({ id: "2", instrument: "USD_JPY", side: "sell", pnl: "-4.5", result: "LOSS" }),
    trade({ id: "3", instrument: "GBP_USD", side: "sell", pnl: "0", result: "BE" }),
  ];
  const ids = (f: Parameters<typeof applyHistoryFilters>[1]) => applyHistoryFilters(rows, f, TZ).map((r) => r.id);
  it("instrument is a case-insensitive substring ('/' accepted)", () => {
    expect(ids({ instrument: "usd" })).toEqual(["1", "2", "3"]);
    expect(ids({ instrument: "jpy" })).toEqual(["2"]);
    expect(ids({ instrument: "eur/usd" })).toEqual(["1"]);
  });
  it("side, result and P&L bounds (inclusive)", () => {
    expect(ids({ side: "sell" })).toEqual(["2", "3"]);
    expect(ids({ result: "BE" })).toEqual(["3"]);
    expect(ids({ minPnL: 0 })).toEqual(["1", "3"]);
    expect(ids({ maxPnL: -4.5 })).toEqual(["2"]);
    expect(ids({ side: "sell", result: "WIN" })).toEqual([]);
  });
  it("free text matches instrument, direction (also COMPRA/VENDA) or result", () => {
    expect(ids({ q: "gbp" })).toEqual(["3"]);
    expect(ids({ q: "venda" })).toEqual(["2", "3"]);
    expect(ids({ q: "loss" })).toEqual(["2"]);
    expect(matchesSearch(rows[0]!, "  ")).toBe(true);
  });
});

describe("historyStats", () => {
  it("total P&L, win rate, profit factor = gross profit / gross loss and payoff ratio = average win / average loss", () => {
    const s = historyStats([trade({ id: "1", pnl: "30" }), trade({ id: "2", pnl: "10" }), trade({ id: "3", pnl: "-10" }), trade({ id: "4", pnl: "0" })]);
    expect(s).toMatchObject({ total: 4, wins: 2, losses: 1, breakeven: 1, pnlTotal: 30, winRate: 50 });
    expect(s.profitFactor).toBe(4); // gross profit 40 / gross loss 10
    expect(s.payoffRatio).toBe(2); // avg win 20 / avg loss 10
    // Losing rows: +150 and 2 × −100 → profit factor 150 / 200 = 0.75 although the payoff ratio is 1.50.
    const losing = historyStats([trade({ id: "5", pnl: "150" }), trade({ id: "6", pnl: "-100" }), trade({ id: "7", pnl: "-100" })]);
    expect(losing).toMatchObject({ pnlTotal: -50, winRate: 33.3, profitFactor: 0.75, payoffRatio: 1.5 });
    expect(historyStats([]).winRate).toBeNull();
  });
});

describe("historyCsv", () => {
  it("is UTF-8 with BOM, ';' separated, decimal comma, prices by precision, lots, local times", () => {
    const csv = historyCsv(
      [
        trade({ id: "7", instrument: "USD_JPY", side: "sell", units: "-25000", openPrice: "151.2345", closePrice: "151.1", pnl: "-12.345", result: "LOSS", aiReason: "=HYPERLINK(\"x\")" }),
        trade({ id: "8" }),
      ],
      TZ,
    );
    expect(csv.startsWith("\uFEFF")).toBe(true);
    const parsed = Papa.parse<string[]>(csv.slice(1), { delimiter: ";" });
    expect(parsed.data[0]).toEqual([...CSV_HEADER]);
    expect(parsed.data[1]).toEqual(["7", "USD/JPY", "VENDA", "0,25", "25000", "151,235", "151,100", "-12,35", "LOSS", "10/03/2026 09:00:00", "10/03/2026 10:00:00", "M15", "'=HYPERLINK(\"x\")", "IA"]);
    expect(parsed.data[2]!.slice(0, 8)).toEqual(["8", "EUR/USD", "COMPRA", "0,10", "10000", "1,08000", "1,08100", "10,00"]);
    expect(csv).toContain("\r\n");
  });
  it("names the file by today's date in the user's timezone", () => {
    expect(csvFileName(Date.parse("2026-03-11T02:00:00Z"), TZ)).toBe("historico-trades-2026-03-10.csv");
  });
});

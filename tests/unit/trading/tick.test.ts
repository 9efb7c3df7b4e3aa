/**
 * The executor's fixed order (DESIGN.md §3) on recording ports: sync → exits → decide → gate →
 * record → place → sync; only the AI's trades are closed by it; every decision is recorded before
 * any order; a rule that stops the bot ends the instrument loop; an allowed opening counts for the
 * instruments after it; a refused order is reported as not executed; with a lapsed licence the
 * tick is manage-only: sync and the AI's exits run, nothing is prepared, decided, recorded or placed.
 */
import { describe, expect, it } from "vitest";
import type { AccountSummary, ClientPrice, Trade } from "../../../core/broker/port";
import type { Decision } from "../../../core/engine/decide";
import { msg } from "../../../core/i18n/message";
import { defaultSettings } from "../../../core/settings";
import type { TradingSettings } from "../../../core/settings";
import { AI_TRADE_TAG } from "../../../core/trading/exits";
import { executeTick } from "../../../core/trading/tick";
import type { TickPorts } from "../../../core/trading/tick";
import type { EdgeTable } from "../../../core/research/edge-table";
import { edgeEverywhere, edgeTable } from "../../support/edge-tables";
import { renderMsg } from "../../../core/i18n";
import { hasEdge } from "../../../core/research/edge-table";
import { SHIPPED_EDGE_TABLE } from "../../../core/trading/edge-gate";

const NOW = "2026-01-14T15:00:00.000000000Z"; // a Wednesday, 12:00 in São Paulo

function openDecision(instrument: string): Decision {
  return {
    id: `ia-${instrument}-M5-x`,
    instrument,
    action: "open",
    side: "buy",
    confidence: 1,
    timeframe: "M5",
    regime: { volatility: "normal", trend: "trending", reason: "r", reasonMsg: msg("engine:decision.marketClosed") },
    reason: "compra",
    reasonMsg: msg("engine:decision.marketClosed"),
    entryPrice: "1.10010",
    stopLoss: "1.09900",
    takeProfit: "1.10200",
    units: "1000",
  };
}

/**
 * Recording ports. `deferSync`: the store says its stored state is fresh (live, ADR 0027); `atBroker`:
 * what the broker has that the stored state does not yet show, learned at the first sync.
 */
function harness(
  opts: {
    settings?: TradingSettings;
    open?: Trade[];
    fillOrders?: boolean;
    losses?: number;
    licenceValid?: boolean;
    deferSync?: boolean;
    /** The store books fills after the orders itself (live, ADR 0042). */
    syncAfterOrders?: boolean;
    atBroker?: { losses?: number; open?: Trade[] };
    /** The edge gate's table: these tests are about the executor's steps, so every pair has an edge unless said. */
    edgeTable?: EdgeTable | null | "shipped";
  } = {},
) {
  const log: string[] = [];
  const summary: AccountSummary = {
    id: "A", currency: "USD", balance: "10000.0000", NAV: "10000.0000", unrealizedPL: "0.0000", pl: "0", marginUsed: "0",
    marginAvailable: "10000", openTradeCount: 0, openPositionCount: 0, pendingOrderCount: 0, lastTransactionID: "1",
  };
  const settings = opts.settings ?? { ...defaultSettings(), instruments: ["EUR_USD", "GBP_USD"] };
  const price = (instrument: string): ClientPrice => ({ instrument, time: NOW, tradeable: true, bid: "1.10000", ask: "1.10010" });
  const losses = (n: number) => Array.from({ length: n }, (_, i) => ({
    openTime: new Date(Date.parse(NOW) - (i + 2) * 3_600_000),
    closeTime: new Date(Date.parse(NOW) - (i + 1) * 3_600_000),
    realizedPL: "-1.0000",
  }));
  let closedLosses = losses(opts.losses ?? 0);
  let open = opts.open ?? [];
  const sync = () => {
    log.push("sync");
    if (opts.atBroker?.losses !== undefined) closedLosses = losses(opts.atBroker.losses);
    if (opts.atBroker?.open) open = opts.atBroker.open;
  };
  const ports: TickPorts = {
    broker: {
      accountSummary: () => (log.push("summary"), summary),
      openTrades: () => (log.push("openTrades"), open),
      prices: (instruments) => (log.push("prices"), instruments.map(price)),
      closeTrade: (t, reason) => (log.push(`close ${t.id} ${reason}`), true),
      placeOrder: (d) => (log.push(`order ${d.instrument}`), opts.fillOrders ?? true),
    },
    store: {
      sync,
      ...(opts.deferSync ? { deferSync: () => (log.push("deferSync"), true) } : {}),
      ...(opts.syncAfterOrders ? { syncAfterOrders: () => void log.push("syncAfterOrders") } : {}),
      counterTrades: () => (log.push("counters"), closedLosses),
      recordDecisions: (records) => void log.push(`record ${records.map((r) => `${r.decision.instrument}:${r.execute ? "go" : r.verdict.code}`).join(",")}`),
      orderNotPlaced: (d) => void log.push(`notPlaced ${d.instrument}`),
    },
    decisions: { prepare: () => (log.push("prepare"), (input) => openDecision(input.instrument)) },
    clock: () => new Date(0),
  };
  const ctx = {
    settings, timezone: "America/Sao_Paulo", licenceValid: opts.licenceValid ?? true, highWaterMark: null, runStartedAt: null,
    ...(opts.edgeTable === "shipped" ? {} : { edgeTable: opts.edgeTable === undefined ? edgeEverywhere() : opts.edgeTable }),
  };
  return { log, run: () => executeTick(ports, ctx) };
}

const trade = (id: string, tag?: string): Trade => ({
  id, instrument: "EUR_USD", price: "1.1", openTime: "2026-01-14T14:00:00.000000000Z", state: "OPEN", initialUnits: "1000", currentUnits: "1000", realizedPL: "0",
  ...(tag ? { clientExtensions: { tag } } : {}),
});

describe("executeTick", () => {
  it("runs the steps in DESIGN.md §3 order and records every decision before the first order", async () => {
    const settings = { ...defaultSettings(), instruments: ["EUR_USD", "GBP_USD"] };
    settings.aiSettings.cooldownSec = 0; // else the first opening's cooldown blocks the second (next test)
    const h = harness({ settings });
    const report = await h.run();
    expect(h.log).toEqual([
      "sync", "summary", "prices", "openTrades", "counters", "prepare",
      "record EUR_USD:go,GBP_USD:go",
      "order EUR_USD", "order GBP_USD",
      "sync",
    ]);
    expect(report.now.toISOString()).toBe("2026-01-14T15:00:00.000Z"); // the broker's price time, not the fallback clock
    expect(report.decisions.map((d) => d.execute)).toEqual([true, true]);
  });

  it("closes only the AI's trades past the scalper's max hold, then syncs and re-reads the account", async () => {
    const settings = { ...defaultSettings(), instruments: ["EUR_USD"] };
    settings.aiSettings.tradingStyle = "scalper";
    const h = harness({ settings, open: [trade("7", AI_TRADE_TAG), trade("8")] });
    const report = await h.run();
    expect(h.log.slice(0, 8)).toEqual(["sync", "summary", "prices", "openTrades", "close 7 max_hold", "sync", "openTrades", "summary"]);
    expect(report.exits.map((e) => e.trade.id)).toEqual(["7"]);
  });

  it("an allowed opening counts for the next instrument (cooldown, max concurrent trades)", async () => {
    const cooled = harness();
    expect((await cooled.run()).decisions.map((d) => (d.execute ? "go" : d.verdict.code))).toEqual(["go", "cooldown"]);
    const h = harness({ settings: { ...defaultSettings(), instruments: ["EUR_USD", "GBP_USD"], maxTrades: 1 } });
    const report = await h.run();
    expect(report.decisions.map((d) => (d.execute ? "go" : d.verdict.code))).toEqual(["go", "max_trades"]);
    expect(h.log.filter((l) => l.startsWith("order"))).toEqual(["order EUR_USD"]);
  });

  it("a rule that stops the bot ends the tick's decisions and places nothing", async () => {
    const h = harness({ losses: 5 });
    const report = await h.run();
    expect(report.stopped?.stopBot).toBe("max_consecutive_losses");
    expect(report.decisions).toHaveLength(1);
    expect(h.log.some((l) => l.startsWith("order"))).toBe(false);
  });

  it("a refused order is reported as not executed and marked in the store", async () => {
    const h = harness({ fillOrders: false, settings: { ...defaultSettings(), instruments: ["EUR_USD"] } });
    const report = await h.run();
    expect(report.decisions[0]!.execute).toBe(false);
    expect(h.log.slice(-2)).toEqual(["order EUR_USD", "notPlaced EUR_USD"]);
  });

  it("manage-only (lapsed licence): sync, account and the AI's exits run; nothing is decided, recorded or placed", async () => {
    const settings = { ...defaultSettings(), instruments: ["EUR_USD", "GBP_USD"] };
    settings.aiSettings.tradingStyle = "scalper";
    const h = harness({ settings, licenceValid: false, open: [trade("7", AI_TRADE_TAG), trade("8")] });
    const report = await h.run();
    expect(h.log).toEqual(["sync", "summary", "prices", "openTrades", "close 7 max_hold", "sync", "openTrades", "summary", "counters"]);
    expect(report.exits.map((e) => e.trade.id)).toEqual(["7"]);
    expect(report.decisions).toEqual([]);
    expect(report.stopped).toBeUndefined();
    expect(report.manageOnly).toMatchObject({ allowed: false, code: "licence_invalid", manageOnly: "licence", reasonMsg: { key: "risk:licenceInvalid" } });
    expect(Number(report.highWaterMark)).toBe(10000); // still raised from the NAV read
  });

  it("from a fresh stored state (live, ADR 0027) a tick that opens nothing and closes nothing never syncs", async () => {
    const settings = { ...defaultSettings(), instruments: ["EUR_USD"], maxTrades: 1 };
    const h = harness({ settings, deferSync: true, open: [trade("8")] });
    const report = await h.run();
    expect(h.log).toEqual(["deferSync", "summary", "prices", "openTrades", "counters", "prepare", "record EUR_USD:max_trades"]);
    expect(report.decisions[0]!.execute).toBe(false);
  });

  it("from a stored state, an opening syncs first and is gated again on the fresh state: a loss the broker booked meanwhile refuses it", async () => {
    const settings = { ...defaultSettings(), instruments: ["EUR_USD"] };
    const allowed = harness({ settings, deferSync: true });
    expect((await allowed.run()).decisions[0]!.execute).toBe(true);
    expect(allowed.log).toEqual([
      "deferSync", "summary", "prices", "openTrades", "counters", "prepare",
      "sync", "summary", "openTrades", "counters",
      "record EUR_USD:go", "order EUR_USD", "sync",
    ]);
    // Stop losses hit at the broker since the stored read: five losses in a row stop the bot, nothing is sent.
    const h = harness({ settings, deferSync: true, losses: 0, atBroker: { losses: 5 } });
    const report = await h.run();
    expect(report.stopped?.stopBot).toBe("max_consecutive_losses");
    expect(h.log.some((l) => l.startsWith("order"))).toBe(false);
    expect(h.log.filter((l) => l === "sync")).toHaveLength(1);
  });

  it("a store that books fills itself (live, ADR 0042) is asked once after every order left, instead of a sync; not when nothing opened", async () => {
    const settings = { ...defaultSettings(), instruments: ["EUR_USD", "GBP_USD"] };
    settings.aiSettings.cooldownSec = 0;
    const h = harness({ settings, deferSync: true, syncAfterOrders: true });
    await h.run();
    expect(h.log.slice(h.log.indexOf("record EUR_USD:go,GBP_USD:go"))).toEqual(["record EUR_USD:go,GBP_USD:go", "order EUR_USD", "order GBP_USD", "syncAfterOrders"]);
    expect(h.log.filter((l) => l === "sync")).toHaveLength(1); // the one before the orders (ADR 0027)
    const refused = harness({ settings, deferSync: true, syncAfterOrders: true, fillOrders: false });
    await refused.run();
    expect(refused.log).not.toContain("syncAfterOrders");
  });

  it("from a stored state, a stop rule is confirmed on the fresh state before it stops the bot", async () => {
    const h = harness({ deferSync: true, losses: 5, atBroker: { losses: 0 } });
    const report = await h.run();
    expect(report.stopped).toBeUndefined();
    expect(h.log).toContain("sync");
  });

  it("from a stored state, an AI exit syncs first: a trade the broker already closed is not closed again", async () => {
    const settings = { ...defaultSettings(), instruments: ["EUR_USD"] };
    settings.aiSettings.tradingStyle = "scalper";
    const h = harness({ settings, deferSync: true, open: [trade("7", AI_TRADE_TAG)], atBroker: { open: [] } });
    const report = await h.run();
    expect(report.exits).toEqual([]);
    expect(h.log.slice(0, 7)).toEqual(["deferSync", "summary", "prices", "openTrades", "sync", "summary", "openTrades"]);
    const still = harness({ settings, deferSync: true, open: [trade("7", AI_TRADE_TAG)] });
    expect((await still.run()).exits.map((e) => e.trade.id)).toEqual(["7"]);
  });

  it("manage-only even when a stop rule would trip: the bot is neither stopped nor trading", async () => {
    const h = harness({ licenceValid: false, losses: 5 });
    const report = await h.run();
    expect(report.stopped).toBeUndefined();
    expect(report.manageOnly?.manageOnly).toBe("licence");
    expect(h.log.some((l) => l.startsWith("order") || l.startsWith("record") || l === "prepare")).toBe(false);
  });
});

describe("executeTick: the edge gate (issue 21)", () => {
  const both = () => {
    const settings = { ...defaultSettings(), instruments: ["EUR_USD", "GBP_USD"] };
    settings.aiSettings.cooldownSec = 0;
    return settings;
  };
  // Swing: EUR_USD tested without an edge, GBP_USD with one; everything else untested.
  const table = edgeTable("untested", { "EUR_USD:swing": "no_edge", "GBP_USD:swing": "edge" });

  it("an opening on a pair without a proven edge stays flat, is recorded with the reason, and sends no order", async () => {
    const h = harness({ settings: both(), edgeTable: table });
    const report = await h.run();
    expect(h.log).toContain("record EUR_USD:no_edge,GBP_USD:go");
    expect(h.log.filter((l) => l.startsWith("order"))).toEqual(["order GBP_USD"]);
    const eur = report.decisions[0]!;
    expect(eur.execute).toBe(false);
    expect(eur.decision.action).toBe("none");
    expect(eur.decision.units).toBeUndefined();
    expect(eur.decision.reason).toBe("Sem vantagem estatística comprovada para EUR/USD no estilo Swing");
    expect(renderMsg(eur.decision.reasonMsg, "pt")).toBe("Sem vantagem estatística comprovada para EUR/USD no estilo Swing");
    expect(renderMsg(eur.decision.reasonMsg, "en")).toBe("No proven statistical edge for EUR/USD in the Swing style");
    expect(renderMsg(eur.decision.reasonMsg, "es")).toBe("Sin ventaja estadística comprobada para EUR/USD en el estilo Swing");
    expect(eur.verdict).toMatchObject({ allowed: false, code: "no_edge" });
  });

  it("the verdict is per style: untested counts as no edge, and the style is named in the reader's language", async () => {
    const settings = both();
    settings.aiSettings.tradingStyle = "day";
    const h = harness({ settings, edgeTable: table });
    const report = await h.run();
    expect(h.log.some((l) => l.startsWith("order"))).toBe(false);
    expect(report.decisions.map((d) => d.verdict.code)).toEqual(["no_edge", "no_edge"]);
    expect(renderMsg(report.decisions[1]!.decision.reasonMsg, "pt")).toBe("Sem vantagem estatística comprovada para GBP/USD no estilo Day trade");
    expect(renderMsg(report.decisions[1]!.decision.reasonMsg, "en")).toBe("No proven statistical edge for GBP/USD in the Day trading style");
  });

  it("a pair the user overrides trades despite no proven edge", async () => {
    const settings = both();
    settings.aiSettings.edgeOverrides = ["EUR_USD"];
    const h = harness({ settings, edgeTable: table });
    const report = await h.run();
    expect(report.decisions.map((d) => d.execute)).toEqual([true, true]);
    expect(h.log.filter((l) => l.startsWith("order"))).toEqual(["order EUR_USD", "order GBP_USD"]);
  });

  it("without a table in the context the shipped table gates; null (the research runner) turns the gate off", async () => {
    const shipped = await harness({ settings: both(), edgeTable: "shipped" }).run();
    const expected = ["EUR_USD", "GBP_USD"].map((i) => (hasEdge(SHIPPED_EDGE_TABLE, i, "swing") ? "ok" : "no_edge"));
    expect(shipped.decisions.map((d) => d.verdict.code)).toEqual(expected);
    const off = await harness({ settings: both(), edgeTable: null }).run();
    expect(off.decisions.map((d) => d.execute)).toEqual([true, true]);
  });

  it("a rule that stops the bot still stops it on a pair without an edge", async () => {
    const h = harness({ settings: both(), edgeTable: edgeTable("no_edge"), losses: 5 });
    const report = await h.run();
    expect(report.stopped?.stopBot).toBe("max_consecutive_losses");
  });
});

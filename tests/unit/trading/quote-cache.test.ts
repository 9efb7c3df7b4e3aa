/**
 * Issue 13 (ADR 0025): the shared quote cache of an environment (app/services/broker/quote-cache.server.ts)
 * over a fake pricing endpoint that counts its reads: ticks within a second share one read, the
 * read carries every instrument ticks asked for, a simulator clock jump drops the cached quotes, a
 * failing read of another user's token does not fail the others, and a read nobody waits for any
 * more (a tick past its deadline) does not end the process with an unhandled rejection.
 * ADR 0030: a streamed price (the price hub) is served only while its stream spoke less than a second
 * ago, and never across a simulator clock jump; the instruments ticks ask for are the hub's demand.
 * Screens (hero, dashboard, pre-flight) are served a quote up to SCREEN_QUOTE_MAX_AGE_MS old at once and
 * refresh it in the background; a tick never gets one older than QUOTE_TTL_MS.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ClientPrice, Environment } from "../../../core/broker/port";
import { demandedInstruments, noteBrokerClock, QUOTE_TTL_MS, SCREEN_QUOTE_MAX_AGE_MS, sharedQuotes } from "../../../app/services/broker/quote-cache.server";

let env = 0;
/** A fresh environment key per test (the cache is process-wide). */
const freshEnv = () => `practice-${++env}` as Environment;

function pricing(opts: { fail?: boolean; delayMs?: number } = {}) {
  const reads: string[][] = [];
  let mid = 1.1;
  const getPricing = async (_account: string, instruments: string[]): Promise<ClientPrice[]> => {
    reads.push(instruments);
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
    if (opts.fail) throw new Error("503");
    mid += 0.0001;
    return instruments.map((instrument) => ({ instrument, time: new Date().toISOString(), tradeable: true, bid: mid.toFixed(5), ask: (mid + 0.0001).toFixed(5) }));
  };
  return { reads, reader: (offered?: string[]) => ({ accountId: "a", client: { getPricing }, ...(offered ? { offered } : {}) }) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("shared quotes", () => {
  it("ticks within a second share one read; after it a new read comes", async () => {
    const e = freshEnv();
    const p = pricing();
    const [a, b] = await Promise.all([sharedQuotes(e, ["EUR_USD"], p.reader()), sharedQuotes(e, ["EUR_USD"], p.reader())]);
    const c = await sharedQuotes(e, ["EUR_USD"], p.reader());
    expect(p.reads.length).toBe(1);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    vi.useFakeTimers({ now: Date.now() + QUOTE_TTL_MS + 1, toFake: ["Date"] });
    const d = await sharedQuotes(e, ["EUR_USD"], p.reader());
    expect(p.reads.length).toBe(2);
    expect(d[0]!.bid).not.toBe(a[0]!.bid);
  });

  it("one read carries the instruments other ticks asked for, limited to what the account offers", async () => {
    const e = freshEnv();
    const p = pricing();
    await sharedQuotes(e, ["USD_JPY"], p.reader(), { also: ["GBP_USD", "EUR_GBP"] });
    vi.useFakeTimers({ now: Date.now() + QUOTE_TTL_MS + 1, toFake: ["Date"] });
    await sharedQuotes(e, ["EUR_USD"], p.reader(["EUR_USD", "GBP_USD", "USD_JPY"]));
    expect(p.reads[1]!.sort()).toEqual(["EUR_USD", "GBP_USD", "USD_JPY"]);
    const got = await sharedQuotes(e, ["GBP_USD", "USD_JPY"], p.reader());
    expect(got.map((q) => q.instrument)).toEqual(["GBP_USD", "USD_JPY"]);
    expect(p.reads.length).toBe(2);
  });

  it("a simulator clock jump (a new X-Sim-Clock tag) drops the cached quotes", async () => {
    const e = freshEnv();
    const p = pricing();
    noteBrokerClock(e, "sim.1");
    await sharedQuotes(e, ["EUR_USD"], p.reader());
    noteBrokerClock(e, "sim.1");
    await sharedQuotes(e, ["EUR_USD"], p.reader());
    expect(p.reads.length).toBe(1);
    noteBrokerClock(e, "sim.2");
    await sharedQuotes(e, ["EUR_USD"], p.reader());
    expect(p.reads.length).toBe(2);
  });

  it("another user's failing read makes the waiting tick read on its own; its own failure is its error", async () => {
    const e = freshEnv();
    const bad = pricing({ fail: true, delayMs: 20 });
    const good = pricing();
    const [first, second] = await Promise.allSettled([sharedQuotes(e, ["EUR_USD"], bad.reader()), sharedQuotes(e, ["EUR_USD"], good.reader())]);
    expect(first.status).toBe("rejected");
    expect(second.status).toBe("fulfilled");
    expect((second as PromiseFulfilledResult<ClientPrice[]>).value.map((q) => q.instrument)).toEqual(["EUR_USD"]);
  });

  it("a tick past its deadline stops waiting, and the read it left behind fails without an unhandled rejection", async () => {
    const e = freshEnv();
    const p = pricing({ fail: true, delayMs: 30 });
    const deadline = new AbortController();
    const waiting = sharedQuotes(e, ["EUR_USD"], p.reader(), { signal: deadline.signal });
    deadline.abort(new Error("prazo"));
    await expect(waiting).rejects.toThrow("prazo");
    const aborted = AbortSignal.abort(new Error("já passou"));
    await expect(sharedQuotes(freshEnv(), ["EUR_USD"], p.reader(), { signal: aborted })).rejects.toThrow("já passou");
    // Let the abandoned reads fail (vitest fails the run on an unhandled rejection).
    await new Promise((r) => setTimeout(r, 80));
  });

  it("a streamed price is served while its stream spoke < 1 s ago (a price or a heartbeat), then the ticks read", async () => {
    const e = freshEnv();
    const p = pricing();
    const streamed = { instrument: "EUR_USD", time: "2026-01-14T10:00:00.000000000Z", tradeable: true, bid: "1.20000", ask: "1.20010", pub: Date.now() };
    let asOf = Date.now();
    const hub = { streamQuote: (env: Environment, i: string) => (env === e && i === "EUR_USD" ? { ...streamed, asOf } : undefined) };
    (globalThis as { __priceHub?: unknown }).__priceHub = hub;
    try {
      expect(await sharedQuotes(e, ["EUR_USD"], p.reader())).toEqual([{ instrument: "EUR_USD", time: streamed.time, tradeable: true, bid: "1.20000", ask: "1.20010" }]);
      expect(p.reads.length).toBe(0);
      expect(demandedInstruments(e)).toEqual(["EUR_USD"]);
      // Quiet for more than a second (no price change, no heartbeat yet): not served any more.
      asOf = Date.now() - QUOTE_TTL_MS - 1;
      expect((await sharedQuotes(e, ["EUR_USD"], p.reader()))[0]!.bid).not.toBe("1.20000");
      expect(p.reads.length).toBe(1);
      // A heartbeat: the same price is current again; but not a price from before a clock jump.
      vi.useFakeTimers({ now: Date.now() + QUOTE_TTL_MS + 1, toFake: ["Date"] });
      asOf = Date.now();
      expect((await sharedQuotes(e, ["EUR_USD"], p.reader()))[0]!.bid).toBe("1.20000");
      noteBrokerClock(e, "sim.jumped");
      expect((await sharedQuotes(e, ["EUR_USD"], p.reader()))[0]!.bid).not.toBe("1.20000");
      expect(p.reads.length).toBe(2);
    } finally {
      delete (globalThis as { __priceHub?: unknown }).__priceHub;
    }
  });

  it("a screen gets a quote up to 5 s old at once and refreshes it in the background; a tick waits for a fresh one", async () => {
    const e = freshEnv();
    const p = pricing({ delayMs: 50 });
    const first = await sharedQuotes(e, ["EUR_USD"], p.reader());
    vi.useFakeTimers({ now: Date.now() + QUOTE_TTL_MS + 1, toFake: ["Date"] });
    const shown = await sharedQuotes(e, ["EUR_USD"], p.reader(), { screen: true });
    expect(shown).toEqual(first); // served without waiting for the read it started
    expect(p.reads.length).toBe(2);
    const traded = await sharedQuotes(e, ["EUR_USD"], p.reader()); // joins that read
    expect(traded[0]!.bid).not.toBe(first[0]!.bid);
    expect(p.reads.length).toBe(2);
    expect(await sharedQuotes(e, ["EUR_USD"], p.reader(), { screen: true })).toEqual(traded);
  });

  it("a screen waits for a read when the cached quote is older than 5 s or from before a simulator clock jump", async () => {
    const e = freshEnv();
    const p = pricing();
    noteBrokerClock(e, "sim.1");
    const first = await sharedQuotes(e, ["EUR_USD"], p.reader());
    noteBrokerClock(e, "sim.2");
    const afterJump = await sharedQuotes(e, ["EUR_USD"], p.reader(), { screen: true });
    expect(afterJump[0]!.bid).not.toBe(first[0]!.bid);
    vi.useFakeTimers({ now: Date.now() + SCREEN_QUOTE_MAX_AGE_MS + 1, toFake: ["Date"] });
    const late = await sharedQuotes(e, ["EUR_USD"], p.reader(), { screen: true });
    expect(late[0]!.bid).not.toBe(afterJump[0]!.bid);
    expect(p.reads.length).toBe(3);
  });
});

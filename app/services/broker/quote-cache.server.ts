/**
 * The shared quote cache (issue 13, ADR 0025): the prices every bot tick of this process reads, one
 * cache per broker environment. Quotes are the same for every account of an environment (OANDA
 * prices an instrument once; the simulator replays one market on one clock for all its accounts),
 * so a tick does not ask the broker for prices another tick read less than `QUOTE_TTL_MS` ago.
 *
 * Where a quote comes from, in order:
 * 1. the price hub (streams/price-hub.server.ts, ADR 0017, ADR 0030) when it runs in this process,
 *    streams the instrument, and its stream spoke (a price of any of its instruments or a heartbeat)
 *    less than `QUOTE_TTL_MS` ago: a stream delivers in order, so its last message proves that the
 *    latest price of each instrument on it was still the broker's latest then. In a `WORKERS=on`
 *    process the instruments ticks ask for (`demandedInstruments`) are the hub's demand, so while the
 *    stream is up and the market moves, ticks make no pricing request (ADR 0030);
 * 2. a quote read by `GET pricing` less than `QUOTE_TTL_MS` ago (the read's start is what counts);
 * 3. one batched `GET pricing` for the missing instruments plus every instrument ticks of the
 *    environment asked for in the last `DEMAND_TTL_MS` that the caller's account offers, so one call
 *    a second serves every instrument set. Callers missing the same instruments meanwhile wait for
 *    that call (at most `JOIN_WAIT_MS`; a slow or failing call of another user's token makes them
 *    read on their own instead: a tick never waits on another user's broker for long).
 *
 * Quotes carry their broker `time` and `tradeable` flag unchanged (the risk gate reads the spread
 * and `tradeable` as before). No quote older than `QUOTE_TTL_MS` of wall-clock time since it was
 * read (or since its stream last spoke) is ever served: a stale quote cannot open a trade. A stream
 * that is down, or quiet for more than `QUOTE_TTL_MS` (no price change and between two heartbeats,
 * which come every 5 s: oanda/PROTOCOL.md §5), falls back to the batched read.
 *
 * The simulator's clock can jump (`POST /sim/clock`) or change speed: each of its replies carries
 * `X-Sim-Clock` (server/simulator/server.ts), noted by every client of the environment
 * (broker.server.ts `clientFor` → `noteBrokerClock`); a change drops every quote read before it, and
 * hub prices published before it are not used. Real OANDA sends no such header: one clock.
 */
import type { BrokerPort, ClientPrice, Environment } from "../../../core/broker/port";

/** How long a quote read from the broker (or published by the hub) is served to other ticks, ms. */
export const QUOTE_TTL_MS = 1000;
/**
 * How old a cached quote may be when a screen (hero, dashboard, pre-flight: figures a person reads, never
 * what a tick trades on) asks, ms. A screen served a quote older than QUOTE_TTL_MS starts the shared read in
 * the background for the next view instead of waiting for it (issue 13 "Web under load": a page waited on a
 * pricing round trip once a second); the hero's figures are live on the client anyway (SSE prices).
 */
export const SCREEN_QUOTE_MAX_AGE_MS = 5000;
/** How long an instrument some tick asked for stays in the batched reads of its environment, ms. */
export const DEMAND_TTL_MS = 120_000;
/** How long a tick waits for another tick's pricing call before reading on its own, ms. */
export const JOIN_WAIT_MS = 2000;

interface Entry {
  price: ClientPrice;
  /** Wall-clock ms when the read that brought it began. */
  at: number;
  /** The broker clock tag current when that read began. */
  clock: string;
}

interface Flight {
  instruments: Set<string>;
  at: number;
  clock: string;
  promise: Promise<ClientPrice[]>;
}

interface EnvQuotes {
  entries: Map<string, Entry>;
  demand: Map<string, number>;
  flights: Set<Flight>;
  /** The broker clock tag last seen (`X-Sim-Clock`), "" for a broker without one. */
  clock: string;
  /** Wall-clock ms when the tag last changed. */
  clockChangedAt: number;
}

/** Counters (logs, tests, benches): quotes served without a read (hub or cache; `streamed` of them from the hub), broker reads made, waits on another tick's read. */
export interface QuoteCacheStats {
  cached: number;
  streamed: number;
  reads: number;
  joined: number;
}

declare global {
  var __quoteCache: Map<Environment, EnvQuotes> | undefined;
  var __quoteCacheStats: QuoteCacheStats | undefined;
}

function envQuotes(environment: Environment): EnvQuotes {
  const all = (globalThis.__quoteCache ??= new Map());
  let q = all.get(environment);
  if (!q) {
    q = { entries: new Map(), demand: new Map(), flights: new Set(), clock: "", clockChangedAt: 0 };
    all.set(environment, q);
  }
  return q;
}

/** Counters since the process started. */
export function quoteCacheStats(): QuoteCacheStats {
  return (globalThis.__quoteCacheStats ??= { cached: 0, streamed: 0, reads: 0, joined: 0 });
}

/**
 * Notes the broker clock tag of a reply of `environment` (the simulator's `X-Sim-Clock`; null or
 * absent on real OANDA). A new tag drops every cached quote of the environment.
 */
export function noteBrokerClock(environment: Environment, tag: string | null | undefined): void {
  if (!tag) return;
  const q = envQuotes(environment);
  if (q.clock === tag) return;
  q.clock = tag;
  q.clockChangedAt = Date.now();
  q.entries.clear();
}

/**
 * Instruments ticks of `environment` asked for (or named as the tick's next) in the last
 * `DEMAND_TTL_MS`, sorted: the price hub's demand for the bots of this process (ADR 0030).
 */
export function demandedInstruments(environment: Environment): string[] {
  const q = globalThis.__quoteCache?.get(environment);
  if (!q) return [];
  const now = Date.now();
  const out: string[] = [];
  for (const [i, until] of q.demand) {
    if (until < now) q.demand.delete(i);
    else out.push(i);
  }
  return out.sort();
}

/** The account whose token reads prices when the cache misses (the calling tick's own). */
export interface QuoteReader {
  accountId: string;
  /** Its client (bound to the tick's deadline). */
  client: Pick<BrokerPort, "getPricing">;
  /** Instruments the account offers: the batched read adds only these (absent: none added). */
  offered?: readonly string[];
}

/** What this module reads of the process's price hub (streams/price-hub.server.ts `globalThis.__priceHub`; not imported: the hub imports the broker module, which imports this one). */
interface HubQuotes {
  streamQuote(
    environment: Environment,
    instrument: string,
  ): { instrument: string; time: string; tradeable: boolean; bid: string; ask: string; pub: number; asOf: number } | undefined;
}

/**
 * The hub's price of `instrument` when the hub runs here, streams it, and its stream spoke less than
 * QUOTE_TTL_MS ago; a price received before the broker clock last changed is not used.
 */
function hubPrice(environment: Environment, instrument: string, q: EnvQuotes, now: number): ClientPrice | undefined {
  const hub = (globalThis as { __priceHub?: HubQuotes }).__priceHub;
  const p = hub?.streamQuote(environment, instrument);
  if (!p || now - p.asOf > QUOTE_TTL_MS || p.pub < q.clockChangedAt) return undefined;
  return { instrument: p.instrument, time: p.time, tradeable: p.tradeable, bid: p.bid, ask: p.ask };
}

/** A fresh quote of `instrument` from the hub or the cache, if any (`streamed` says which). */
function fresh(environment: Environment, q: EnvQuotes, instrument: string, now: number): { price: ClientPrice; streamed: boolean } | undefined {
  const h = hubPrice(environment, instrument, q, now);
  if (h) return { price: h, streamed: true };
  const e = q.entries.get(instrument);
  if (e && e.clock === q.clock && now - e.at <= QUOTE_TTL_MS) return { price: e.price, streamed: false };
  return undefined;
}

/** Rejects with the signal's reason when it aborts, else settles as `p`; `ms` bounds the wait (then resolves `undefined`). */
function within<T>(p: Promise<T>, ms: number, signal?: AbortSignal): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve, reject) => {
    if (signal?.aborted) {
      p.catch(() => {}); // the read's failure is nobody's now (an unhandled rejection would end the process)
      return reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    }
    const timer = Number.isFinite(ms) ? setTimeout(() => finish(() => resolve(undefined)), ms) : undefined;
    const onAbort = () => finish(() => reject(signal!.reason instanceof Error ? signal!.reason : new Error(String(signal!.reason))));
    const finish = (f: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      f();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => finish(() => resolve(v)),
      (err: unknown) => finish(() => reject(err instanceof Error ? err : new Error(String(err)))),
    );
  });
}

/** Starts one `GET pricing` for `instruments` and records what it brings. */
function startRead(environment: Environment, q: EnvQuotes, reader: QuoteReader, instruments: Set<string>): Flight {
  const at = Date.now();
  const clock = q.clock;
  quoteCacheStats().reads++;
  const flight: Flight = { instruments, at, clock, promise: Promise.resolve([]) };
  flight.promise = reader.client.getPricing(reader.accountId, [...instruments].sort()).then(
    (prices) => {
      q.flights.delete(flight);
      // A reply read under an older clock tag is still this caller's answer, but is not shared.
      if (q.clock === clock) for (const p of prices) q.entries.set(p.instrument, { price: p, at, clock });
      return prices;
    },
    (err: unknown) => {
      q.flights.delete(flight);
      throw err;
    },
  );
  // Handled here too: a caller that stopped waiting (deadline, join timeout) leaves the read unobserved.
  flight.promise.catch(() => {});
  q.flights.add(flight);
  return flight;
}

/** What one read asks for: `needed` plus every instrument demanded in the last DEMAND_TTL_MS that the reader's account offers and that has no fresh quote. */
function readSet(environment: Environment, q: EnvQuotes, reader: QuoteReader, needed: readonly string[], now: number): Set<string> {
  const wanted = new Set(needed);
  const offered = reader.offered ? new Set(reader.offered) : undefined;
  for (const [i, until] of q.demand) {
    if (until < now) q.demand.delete(i);
    else if (offered?.has(i) && !fresh(environment, q, i, now)) wanted.add(i);
  }
  return wanted;
}

/**
 * Quotes of `instruments` in `environment` (in that order; an instrument the broker did not price
 * is left out), from the hub, the cache or one shared `GET pricing` (module doc). `also` are
 * instruments the same tick will ask for next (read in the same call when missing). `signal`
 * aborts the wait (the tick's deadline). `screen`: the caller shows the quotes to a person (never trades
 * on them): a cached quote up to SCREEN_QUOTE_MAX_AGE_MS old (same broker clock) is served at once and, when
 * older than QUOTE_TTL_MS, refreshed in the background.
 * @throws the broker's error when this caller's own read fails
 */
export async function sharedQuotes(
  environment: Environment,
  instruments: readonly string[],
  reader: QuoteReader,
  opts: { also?: readonly string[]; signal?: AbortSignal; screen?: boolean } = {},
): Promise<ClientPrice[]> {
  const q = envQuotes(environment);
  const now = Date.now();
  for (const i of [...instruments, ...(opts.also ?? [])]) q.demand.set(i, now + DEMAND_TTL_MS);
  const got = new Map<string, ClientPrice>();
  const missing: string[] = [];
  const stale: string[] = [];
  for (const i of instruments) {
    const f = fresh(environment, q, i, now);
    const e = f || !opts.screen ? undefined : q.entries.get(i);
    if (f) {
      quoteCacheStats().cached++;
      if (f.streamed) quoteCacheStats().streamed++;
      got.set(i, f.price);
    } else if (e && e.clock === q.clock && now - e.at <= SCREEN_QUOTE_MAX_AGE_MS) {
      quoteCacheStats().cached++;
      got.set(i, e.price);
      stale.push(i);
    } else missing.push(i);
  }
  if (stale.length && ![...q.flights].some((f) => f.clock === q.clock && stale.every((i) => f.instruments.has(i)))) {
    startRead(environment, q, reader, readSet(environment, q, reader, stale, now)); // for the next view; its failure is nobody's (startRead observes it)
  }
  if (missing.length) {
    const joinable = [...q.flights].find((f) => f.clock === q.clock && now - f.at <= QUOTE_TTL_MS && missing.every((i) => f.instruments.has(i)));
    let prices: ClientPrice[] | undefined;
    if (joinable) {
      quoteCacheStats().joined++;
      prices = await within(joinable.promise, JOIN_WAIT_MS, opts.signal).catch(() => undefined);
    }
    if (!prices) prices = await within(startRead(environment, q, reader, readSet(environment, q, reader, missing, now)).promise, Number.POSITIVE_INFINITY, opts.signal);
    for (const p of prices ?? []) if (missing.includes(p.instrument)) got.set(p.instrument, p);
  }
  return instruments.flatMap((i) => (got.has(i) ? [got.get(i)!] : []));
}

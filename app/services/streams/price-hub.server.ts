/**
 * The price hub (DESIGN.md §1 "/api/stream/* SSE <── price hub <── broker stream", §3.1; ADR 0017).
 *
 * - One upstream OANDA pricing stream per environment for the whole deployment, opened by the
 *   process that holds its advisory lock (price-upstream.server.ts).
 * - Its instrument set is the union of what every process's listeners want (their SSE connections
 *   and `POST /api/stream/ensure`), announced over NOTIFY (price-demand.server.ts); nobody
 *   listening for `PRICE_STREAM_IDLE_MS` closes it and frees the lock.
 * - Every price is fanned out in this process at once and published with `pg_notify` on the channel
 *   `price_hub` (one small JSON payload, far under PostgreSQL's 8000 bytes); the other processes
 *   LISTEN and fan out the same event, with the same id. Trade events (`order_fill`, `trade_close`)
 *   come on the same channel from the reconcile's transaction (notify/trade-events.server.ts).
 * Listeners subscribe with `subscribe()`; back-pressure is the SSE layer's (sse-routes.server.ts).
 *
 * Bots (ADR 0030): in a `WORKERS=on` process `feedBots()` adds the instruments its bot ticks asked
 * the quote cache for (quote-cache.server.ts `demandedInstruments`, the last 2 minutes) to this
 * process's demand, so the stream carries the bots' prices and steady ticks need no pricing request.
 * Each upstream connection has a generation (`gen`); the hub notes when the current one last spoke
 * (a price or a heartbeat, relayed to the other processes as well) and `streamQuote` gives a price
 * only with that time (`asOf`) and only when the price came on the current connection; the quote
 * cache serves it while `asOf` is less than 1 s old.
 */
import { randomUUID } from "node:crypto";
import postgres from "postgres";
import type { ClientPrice, Environment } from "../../../core/broker/port";
import { Decimal } from "../../../core/decimal";
import { config } from "../platform/config.server";
import { logger } from "../platform/logger.server";
import { forgetAccountState } from "../broker/account-cache.server";
import { DEMAND_REFRESH_MS, PriceDemand } from "./price-demand.server";
import type { HubPrice, HubStats, HubSubscriber, TradeEvent, Wire } from "./price-hub-types";
import { ENVIRONMENTS, PriceUpstreams } from "./price-upstream.server";
import { HUB_CHANNEL } from "../platform/sse";
import { noteBrokerAnswer } from "../platform/readiness-state";

/** How often the hub re-checks ownership, demand and idleness, ms. */
const MAINTAIN_MS = 1_000;

/** The upstream connection of an environment that last spoke: its generation and when (ms since the epoch, holder's clock). */
interface Live {
  gen: string;
  at: number;
}

/** The process's price hub: listeners, demand, fan-out and the NOTIFY relay (module comment). */
export class PriceHub {
  readonly processId = randomUUID().slice(0, 8);
  private readonly sql: postgres.Sql;
  private readonly subscribers = new Set<HubSubscriber>();
  private readonly latest = new Map<string, HubPrice>();
  private readonly demand = new PriceDemand();
  private readonly upstreams: PriceUpstreams;
  private readonly announced = new Map<Environment, string>();
  private readonly live = new Map<Environment, Live>();
  private listening?: Promise<unknown>;
  private timer?: NodeJS.Timeout;
  private lastAnnounce = 0;
  private maintaining = false;
  private lastSeq = 0;
  private stopped = false;
  readonly stats: HubStats = { holding: [], upstreamOpens: 0, published: 0, received: 0, heartbeats: 0 };

  constructor(databaseUrl: string, idleMs: number) {
    // One connection for NOTIFY and token reads, one reserved per held lock, one for LISTEN (postgres.js opens it).
    this.sql = postgres(databaseUrl, { max: 4, idle_timeout: 60, onnotice: () => {} });
    this.upstreams = new PriceUpstreams(this.sql, this.processId, idleMs, this.stats, {
      notify: (w) => this.notify(w),
      onPrice: (env, p, gen) => this.onUpstreamPrice(env, p, gen),
      onHeartbeat: (env, gen) => this.onUpstreamHeartbeat(env, gen),
      streamDown: (env, gen) => this.streamDown(env, gen),
    });
  }

  /** Starts listening on the channel and the maintenance timer (idempotent). */
  start(): Promise<unknown> {
    if (!this.listening) {
      this.listening = this.sql.listen(HUB_CHANNEL, (payload) => this.onNotify(payload), () => void this.notify({ k: "q", o: this.processId }).catch(() => {}));
      this.listening.catch((err: unknown) => logger().error({ err }, "price hub: LISTEN falhou"));
      this.timer = setInterval(() => void this.maintain(), MAINTAIN_MS);
      this.timer.unref();
    }
    return this.listening;
  }

  /** Adds a listener; returns its removal. Demand changes reach the upstream at once. */
  subscribe(s: HubSubscriber): () => void {
    this.subscribers.add(s);
    void this.maintain();
    return () => {
      this.subscribers.delete(s);
    };
  }

  /**
   * Makes the instruments this process's bot ticks ask for part of its demand (ADR 0030; called once
   * by a `WORKERS=on` process). Idempotent.
   */
  feedBots(): void {
    this.demand.feedingBots = true;
    void this.maintain();
  }

  /**
   * The streamed price of `instrument` in `environment` with `asOf`, the time its upstream connection
   * last spoke (ms since the epoch): undefined when no upstream of the environment is known to be up
   * or the price did not come on its current connection. The caller judges freshness from `asOf`.
   */
  streamQuote(environment: Environment, instrument: string): (HubPrice & { asOf: number }) | undefined {
    const live = this.live.get(environment);
    const p = this.latest.get(`${environment}:${instrument}`);
    if (!live || !p || p.gen !== live.gen) return undefined;
    return { ...p, asOf: live.at };
  }

  /** Number of listeners in this process. */
  get size(): number {
    return this.subscribers.size;
  }

  /** The latest price of each of `instruments` in `environment` known here (newer than `afterSeq` when given). */
  latestFor(environment: Environment, instruments: Iterable<string>, afterSeq = 0): HubPrice[] {
    const out: HubPrice[] = [];
    for (const i of instruments) {
      const p = this.latest.get(`${environment}:${i}`);
      if (p && p.seq > afterSeq) out.push(p);
    }
    return out.sort((a, b) => a.seq - b.seq);
  }

  /**
   * POST /api/stream/ensure: keeps `instruments` demanded in `environment` for a while (every
   * process hears it), widens the upstream now and adds them to the user's open price streams.
   */
  async ensure(environment: Environment, instruments: string[], userId: string): Promise<void> {
    this.applyEnsure(environment, instruments, userId);
    await this.notify({ k: "e", o: this.processId, u: userId, e: environment, i: instruments });
  }

  private applyEnsure(environment: Environment, instruments: string[], userId: string): void {
    this.demand.ensure(environment, instruments);
    for (const s of this.subscribers) if (s.userId === userId && s.environment === environment) s.onEnsure?.(instruments);
    void this.maintain();
  }

  /** Stops: the upstreams close, the locks are released, LISTEN ends. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.upstreams.releaseAll();
    for (const env of ENVIRONMENTS) if (this.announced.get(env)) await this.notify({ k: "d", o: this.processId, e: env, i: [] }).catch(() => {});
    await this.sql.end({ timeout: 2 }).catch(() => {});
  }

  /** One pass: announce demand, take/keep/release the upstream of each environment. Never throws. */
  private async maintain(): Promise<void> {
    if (this.maintaining || this.stopped) return;
    this.maintaining = true;
    try {
      const now = Date.now();
      const refresh = now - this.lastAnnounce > DEMAND_REFRESH_MS;
      if (refresh) this.lastAnnounce = now;
      for (const env of ENVIRONMENTS) {
        const local = this.demand.local(env, this.subscribers);
        const key = local.join(",");
        if (key !== (this.announced.get(env) ?? "") || (refresh && local.length)) {
          this.announced.set(env, key);
          await this.notify({ k: "d", o: this.processId, e: env, i: local });
        }
        await this.upstreams.maintain(env, this.demand.total(env, local));
      }
    } catch (err) {
      logger().warn({ err: String(err) }, "price hub: manutenção falhou");
    } finally {
      this.maintaining = false;
    }
  }

  /** Notes that connection `gen` of `env` spoke at `at` (a newer generation replaces an older one). */
  private spoke(env: Environment, gen: string, at: number): void {
    const cur = this.live.get(env);
    if (!cur || cur.gen !== gen || cur.at < at) this.live.set(env, { gen, at });
  }

  /** Connection `gen` of `env` is gone: its prices are no longer served to ticks (here and, told, elsewhere). */
  private streamDown(env: Environment, gen: string): void {
    if (this.live.get(env)?.gen !== gen) return;
    this.live.delete(env);
    if (!this.stopped) void this.notify({ k: "x", o: this.processId, e: env, g: gen }).catch(() => {});
  }

  /** A price from our upstream: stamp, fan out here, publish to the others. */
  private onUpstreamPrice(env: Environment, p: ClientPrice, gen: string): void {
    const bid = p.bid || p.closeoutBid;
    const ask = p.ask || p.closeoutAsk;
    if (!bid || !ask) return;
    const pub = Date.now();
    const seq = (this.lastSeq = Math.max(pub * 1000, this.lastSeq + 1));
    const mid = new Decimal(bid).plus(ask).div(2).toString();
    const price: HubPrice = { instrument: p.instrument, bid, ask, mid, time: p.time, tradeable: p.tradeable, pub, seq, environment: env, gen };
    this.deliver(price);
    this.spoke(env, gen, pub);
    this.stats.published++;
    void this.notify({ k: "p", o: this.processId, e: env, s: seq, i: p.instrument, b: bid, a: ask, m: mid, t: p.time, tr: p.tradeable, pub, g: gen }).catch(() => {});
  }

  /** A heartbeat from our upstream (every 5 s, PROTOCOL.md §5): the stream is alive; told to the others. */
  private onUpstreamHeartbeat(env: Environment, gen: string): void {
    const pub = Date.now();
    this.stats.heartbeats++;
    this.spoke(env, gen, pub);
    noteBrokerAnswer(pub); // /ready: our upstream pricing stream is the broker answering
    void this.notify({ k: "h", o: this.processId, e: env, g: gen, pub }).catch(() => {});
  }

  private deliver(price: HubPrice): void {
    const key = `${price.environment}:${price.instrument}`;
    const prev = this.latest.get(key);
    if (prev && prev.seq >= price.seq) return;
    this.latest.set(key, price);
    for (const s of this.subscribers) {
      if (s.environment !== price.environment || !s.instruments.has(price.instrument)) continue;
      try {
        s.onPrice(price);
      } catch (err) {
        logger().warn({ err: String(err) }, "price hub: assinante falhou");
      }
    }
  }

  private onNotify(payload: string): void {
    let w: Wire;
    try {
      w = JSON.parse(payload) as Wire;
    } catch {
      return;
    }
    if (w.k === "t") {
      forgetAccountState(w.u); // the screens' cached balance/open trades predate this fill or close (issue 13)
      const ev: TradeEvent = { event: w.ev, userId: w.u, tradeId: w.t };
      for (const s of this.subscribers) if (s.userId === ev.userId) s.onTrade?.(ev);
      return;
    }
    if (w.o === this.processId) return;
    if (w.k === "p") {
      this.stats.received++;
      this.lastSeq = Math.max(this.lastSeq, w.s);
      this.deliver({ instrument: w.i, bid: w.b, ask: w.a, mid: w.m, time: w.t, tradeable: w.tr, pub: w.pub, seq: w.s, environment: w.e, gen: w.g });
      if (w.g) this.spoke(w.e, w.g, w.pub);
    } else if (w.k === "h") {
      this.stats.heartbeats++;
      this.spoke(w.e, w.g, w.pub);
    } else if (w.k === "x") {
      if (this.live.get(w.e)?.gen === w.g) this.live.delete(w.e);
    } else if (w.k === "d") {
      this.demand.heard(w.e, w.o, w.i);
      if (this.upstreams.holding(w.e)) void this.maintain();
    } else if (w.k === "e") {
      this.applyEnsure(w.e, w.i, w.u);
    } else if (w.k === "q") {
      this.lastAnnounce = 0;
      void this.maintain();
    }
  }

  private async notify(w: Wire): Promise<void> {
    await this.sql`select pg_notify(${HUB_CHANNEL}, ${JSON.stringify(w)})`;
  }
}

declare global {
  var __priceHub: PriceHub | undefined;
}

/** The process's hub, started on first use. */
export function priceHub(): PriceHub {
  if (!globalThis.__priceHub) {
    const cfg = config();
    if (!cfg.DATABASE_URL) throw new Error("DATABASE_URL não definido");
    globalThis.__priceHub = new PriceHub(cfg.DATABASE_URL, cfg.PRICE_STREAM_IDLE_MS);
    void globalThis.__priceHub.start();
  }
  return globalThis.__priceHub;
}

/** Stops the hub if it was started (shutdown). */
export async function stopPriceHub(): Promise<void> {
  const hub = globalThis.__priceHub;
  globalThis.__priceHub = undefined;
  await hub?.stop();
}

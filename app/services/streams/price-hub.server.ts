/**
 * The price hub (DESIGN.md §1 "/api/stream/* SSE <── price hub <── broker stream", §3.1; ADR 0017).
 *
 * - One upstream OANDA pricing stream per environment for the whole deployment (OANDA allows 20
 *   streams per IP): the process that holds the PostgreSQL advisory lock `price-hub/<environment>`,
 *   taken on a dedicated connection, opens it; the others take over when that session ends.
 * - Its instrument set is the union of what every process's listeners want (their SSE connections
 *   and `POST /api/stream/ensure`), announced over NOTIFY; a wider demand re-opens the stream with
 *   the union (bounded by `MAX_UPSTREAM_INSTRUMENTS`); nobody listening for `PRICE_STREAM_IDLE_MS`
 *   closes it and frees the lock.
 * - It is opened with the token of a broker connection of that environment (ADR 0017; one with an
 *   active bot first, ADR 0030); a token the broker refuses (401/403) is set aside and the next
 *   connection's is tried.
 * - Every price is fanned out in this process at once and published with `pg_notify` on the channel
 *   `price_hub` (one small JSON payload, far under PostgreSQL's 8000 bytes); the other processes
 *   LISTEN and fan out the same event, with the same id. Trade events (`order_fill`, `trade_close`)
 *   come on the same channel from the reconcile's transaction (trade-events.server.ts).
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
import { BrokerError } from "../../../core/oanda/errors";
import { clientFor } from "../broker/broker.server";
import { config } from "../platform/config.server";
import { decryptSecret } from "../platform/crypto.server";
import { logger } from "../platform/logger.server";
import { forgetAccountState } from "../broker/account-cache.server";
import { demandedInstruments } from "../broker/quote-cache.server";
import { HUB_CHANNEL, type StreamPrice } from "./sse";

export { HUB_CHANNEL };

/** First key of the advisory lock (two-int form: this, hashtext(environment)). */
const LOCK_KEY = 0x50524943; // "PRIC"
/** Most instruments on one upstream stream. */
export const MAX_UPSTREAM_INSTRUMENTS = 20;
/** How often the hub re-checks ownership, demand and idleness, ms. */
const MAINTAIN_MS = 1_000;
/** How often a process re-announces its demand; a remote demand older than 3× this is dropped. */
const DEMAND_REFRESH_MS = 10_000;
/** How long `ensure` keeps instruments demanded without a connection using them, ms. */
const ENSURE_TTL_MS = 120_000;
/** A broker token refused by the broker is not tried again for this long, ms. */
const BAD_TOKEN_MS = 10 * 60_000;
const ENVIRONMENTS: Environment[] = ["practice", "live"];

/** A trade event for one user (PRODUCT.md §7 Streaming: order_fill, trade_close). */
export interface TradeEvent {
  event: "order_fill" | "trade_close";
  userId: string;
  tradeId: string;
}

/** A price as the hub holds it: the SSE event id (`seq`, increasing) and its environment. */
export interface HubPrice extends StreamPrice {
  seq: number;
  environment: Environment;
  /** The upstream connection it came on (absent: unknown, never served to ticks). */
  gen?: string;
}

/** The upstream connection of an environment that last spoke: its generation and when (ms since the epoch, holder's clock). */
interface Live {
  gen: string;
  at: number;
}

/** One listener: its environment and instruments; callbacks run synchronously in the fan-out. */
export interface HubSubscriber {
  environment: Environment;
  instruments: Set<string>;
  userId: string;
  onPrice(p: HubPrice): void;
  onTrade?(e: TradeEvent): void;
  /** The user ensured more instruments (POST /api/stream/ensure, any process). */
  onEnsure?(instruments: string[]): void;
}

/** Payloads on the channel. */
type Wire =
  | { k: "p"; o: string; e: Environment; s: number; i: string; b: string; a: string; m: string; t: string; tr: boolean; pub: number; g?: string }
  | { k: "h"; o: string; e: Environment; g: string; pub: number }
  | { k: "x"; o: string; e: Environment; g: string }
  | { k: "d"; o: string; e: Environment; i: string[] }
  | { k: "q"; o: string }
  | { k: "e"; o: string; u: string; e: Environment; i: string[] }
  | { k: "t"; ev: TradeEvent["event"]; u: string; t: string };

interface Upstream {
  holding: boolean;
  lockConn?: postgres.ReservedSql;
  abort?: AbortController;
  instruments: string[];
  idleSince?: number;
  lastLockCheck: number;
  connecting?: boolean;
  /** The broker connection whose token the stream uses. */
  owner?: { userId: string; accountId: string };
  /** No usable token or a refused one: the next attempt waits until then (ms since the epoch). */
  retryAt?: number;
}

/** Counters (tests and logs). */
export interface HubStats {
  holding: Environment[];
  upstreamOpens: number;
  published: number;
  received: number;
  /** Upstream heartbeats seen by this process (its own stream's and relayed ones). */
  heartbeats: number;
}

export class PriceHub {
  readonly processId = randomUUID().slice(0, 8);
  private readonly sql: postgres.Sql;
  private readonly subscribers = new Set<HubSubscriber>();
  private readonly latest = new Map<string, HubPrice>();
  private readonly ensured = new Map<Environment, Map<string, number>>();
  private readonly remote = new Map<Environment, Map<string, { instruments: string[]; at: number }>>();
  private readonly upstreams = new Map<Environment, Upstream>();
  private readonly announced = new Map<Environment, string>();
  private readonly badTokens = new Map<string, number>();
  private readonly live = new Map<Environment, Live>();
  private feedingBots = false;
  private generations = 0;
  private listening?: Promise<unknown>;
  private timer?: NodeJS.Timeout;
  private lastAnnounce = 0;
  private maintaining = false;
  private lastSeq = 0;
  private stopped = false;
  readonly stats: HubStats = { holding: [], upstreamOpens: 0, published: 0, received: 0, heartbeats: 0 };

  constructor(
    databaseUrl: string,
    private readonly idleMs: number,
  ) {
    // One connection for NOTIFY and token reads, one reserved per held lock, one for LISTEN (postgres.js opens it).
    this.sql = postgres(databaseUrl, { max: 4, idle_timeout: 60, onnotice: () => {} });
    for (const e of ENVIRONMENTS) this.upstreams.set(e, { holding: false, instruments: [], lastLockCheck: 0 });
  }

  /** Starts listening on the channel and the maintenance timer (idempotent). */
  start(): Promise<unknown> {
    if (!this.listening) {
      this.listening = this.sql.listen(HUB_CHANNEL, (payload) => this.onNotify(payload), () => void this.notify({ k: "q", o: this.processId }));
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
    this.feedingBots = true;
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
    const m = this.ensured.get(environment) ?? new Map<string, number>();
    for (const i of instruments) m.set(i, Date.now() + ENSURE_TTL_MS);
    this.ensured.set(environment, m);
    for (const s of this.subscribers) if (s.userId === userId && s.environment === environment) s.onEnsure?.(instruments);
    void this.maintain();
  }

  /** Stops: the upstreams close, the locks are released, LISTEN ends. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    for (const [env, up] of this.upstreams) await this.release(env, up);
    for (const env of ENVIRONMENTS) if (this.announced.get(env)) await this.notify({ k: "d", o: this.processId, e: env, i: [] }).catch(() => {});
    await this.sql.end({ timeout: 2 }).catch(() => {});
  }

  /** Instruments this process's listeners want in `environment` (sorted). */
  private localDemand(environment: Environment): string[] {
    const set = new Set<string>();
    for (const s of this.subscribers) if (s.environment === environment) for (const i of s.instruments) set.add(i);
    if (this.feedingBots) for (const i of demandedInstruments(environment)) set.add(i);
    const now = Date.now();
    const ens = this.ensured.get(environment);
    if (ens)
      for (const [i, until] of ens) {
        if (until < now) ens.delete(i);
        else set.add(i);
      }
    return [...set].sort();
  }

  /** Local ∪ fresh remote demand. */
  private totalDemand(environment: Environment, local: string[]): string[] {
    const set = new Set(local);
    const now = Date.now();
    const rem = this.remote.get(environment);
    if (rem)
      for (const [proc, d] of rem) {
        if (now - d.at > 3 * DEMAND_REFRESH_MS) rem.delete(proc);
        else for (const i of d.instruments) set.add(i);
      }
    return [...set].sort();
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
        const local = this.localDemand(env);
        const key = local.join(",");
        if (key !== (this.announced.get(env) ?? "") || (refresh && local.length)) {
          this.announced.set(env, key);
          await this.notify({ k: "d", o: this.processId, e: env, i: local });
        }
        await this.maintainUpstream(env, this.totalDemand(env, local));
      }
    } catch (err) {
      logger().warn({ err: String(err) }, "price hub: manutenção falhou");
    } finally {
      this.maintaining = false;
    }
  }

  private async maintainUpstream(env: Environment, demand: string[]): Promise<void> {
    const up = this.upstreams.get(env)!;
    const now = Date.now();
    if (demand.length === 0) {
      if (!up.holding) return;
      up.idleSince ??= now;
      if (now - up.idleSince >= this.idleMs) await this.release(env, up);
      return;
    }
    up.idleSince = undefined;
    if (!up.holding) {
      const conn = await this.sql.reserve();
      const [row] = await conn<{ ok: boolean }[]>`select pg_try_advisory_lock(${LOCK_KEY}, hashtext(${env})) as ok`;
      if (!row?.ok) {
        conn.release();
        return;
      }
      up.holding = true;
      up.lockConn = conn;
      up.lastLockCheck = now;
      this.stats.holding = ENVIRONMENTS.filter((e) => this.upstreams.get(e)!.holding);
      logger().info({ environment: env, process: this.processId }, "price hub: este processo abre o stream de preços");
      // Ask the other processes for their demand now rather than at their next refresh.
      await this.notify({ k: "q", o: this.processId });
    } else if (now - up.lastLockCheck > 5_000) {
      up.lastLockCheck = now;
      const held = await up
        .lockConn!<{ n: number }[]>`select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()
          and classid = ${LOCK_KEY} and objid = hashtext(${env})::oid and objsubid = 2`
        .catch(() => [{ n: 0 }]);
      if (!held[0]?.n) {
        logger().warn({ environment: env }, "price hub: trava perdida; outro processo assume");
        await this.release(env, up);
        return;
      }
      // The user whose token we stream with disconnected (or was deleted): stop using the token.
      if (up.owner && up.abort) {
        const [still] = await this.sql`select 1 from broker_connections where user_id = ${up.owner.userId} and account_id = ${up.owner.accountId}`;
        if (!still) {
          up.abort.abort();
          up.abort = undefined;
          up.instruments = [];
        }
      }
    }
    if (!up.abort && now < (up.retryAt ?? 0)) return;
    const wanted = [...new Set([...up.instruments, ...demand])].sort().slice(0, MAX_UPSTREAM_INSTRUMENTS);
    if (!up.abort || wanted.join(",") !== up.instruments.join(",")) await this.open(env, up, wanted);
  }

  /** (Re)opens the upstream of `env` with `instruments`, with the first usable broker token. */
  private async open(env: Environment, up: Upstream, instruments: string[]): Promise<void> {
    if (up.connecting) return;
    up.connecting = true;
    try {
      up.abort?.abort();
      up.abort = undefined;
      // Whose token (ADR 0017, ADR 0030): a connected account whose bot is active first (the product
      // already calls the broker with that token every tick, on its owner's behalf), then any connected
      // one; the most recently connected first.
      const candidates = await this.sql<{ user_id: string; account_id: string; token_encrypted: string }[]>`
        select c.user_id, c.account_id, c.token_encrypted from broker_connections c left join bots b on b.user_id = c.user_id
        where c.environment = ${env}
        order by (c.status = 'connected') desc, coalesce(b.is_active, false) desc, c.connected_at desc limit 50`;
      const now = Date.now();
      const pick = candidates.find((c) => (this.badTokens.get(`${c.user_id}:${c.account_id}`) ?? 0) < now);
      if (!pick) {
        up.instruments = [];
        up.retryAt = now + 5_000;
        logger().warn({ environment: env }, "price hub: nenhuma conexão de corretora utilizável para o stream de preços");
        return;
      }
      const client = clientFor(decryptSecret(pick.token_encrypted), env);
      // Only the instruments this account offers (issue 12: a supported pair the broker lacks would
      // make OANDA refuse the whole stream with a 400); `up.instruments` keeps the demand, so an
      // unchanged demand does not re-open.
      const offered = await client.getInstruments(pick.account_id).then(
        (list) => new Set(list.map((i) => i.name)),
        (err: unknown) => {
          if (err instanceof BrokerError) this.badTokens.set(`${pick.user_id}:${pick.account_id}`, Date.now() + BAD_TOKEN_MS);
          return null;
        },
      );
      const streamed = offered ? instruments.filter((i) => offered.has(i)) : [];
      if (streamed.length === 0) {
        up.instruments = offered ? instruments : [];
        up.retryAt = Date.now() + (offered ? 60_000 : 1_000);
        return;
      }
      const abort = new AbortController();
      up.abort = abort;
      up.instruments = instruments;
      up.owner = { userId: pick.user_id, accountId: pick.account_id };
      this.stats.upstreamOpens++;
      // A new generation per connection: the client reconnects by itself after a drop or 10 s of
      // silence (core/oanda/stream.ts), and each connection starts with a snapshot of every instrument.
      let gen = this.nextGeneration();
      client
        .streamPricing(
          pick.account_id,
          streamed,
          {
            onPrice: (p) => this.onUpstreamPrice(env, p, gen),
            onHeartbeat: () => this.onUpstreamHeartbeat(env, gen),
            onReconnect: () => {
              this.streamDown(env, gen);
              gen = this.nextGeneration();
            },
          },
          abort.signal,
        )
        .finally(() => this.streamDown(env, gen))
        .catch((err: unknown) => {
          if (abort.signal.aborted) return;
          if (err instanceof BrokerError) this.badTokens.set(`${pick.user_id}:${pick.account_id}`, Date.now() + BAD_TOKEN_MS);
          logger().warn({ environment: env, err: String(err) }, "price hub: stream de preços recusado; tentando outra conexão");
          if (up.abort === abort) {
            up.abort = undefined;
            up.instruments = [];
            up.retryAt = Date.now() + 1_000;
          }
        });
    } finally {
      up.connecting = false;
    }
  }

  private async release(env: Environment, up: Upstream): Promise<void> {
    up.abort?.abort();
    up.abort = undefined;
    up.instruments = [];
    up.idleSince = undefined;
    if (up.lockConn) {
      const conn = up.lockConn;
      up.lockConn = undefined;
      await conn`select pg_advisory_unlock(${LOCK_KEY}, hashtext(${env}))`.catch(() => {});
      conn.release();
    }
    up.holding = false;
    this.stats.holding = ENVIRONMENTS.filter((e) => this.upstreams.get(e)!.holding);
  }

  private nextGeneration(): string {
    return `${this.processId}.${++this.generations}`;
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
      const m = this.remote.get(w.e) ?? new Map();
      if (w.i.length) m.set(w.o, { instruments: w.i, at: Date.now() });
      else m.delete(w.o);
      this.remote.set(w.e, m);
      if (this.upstreams.get(w.e)?.holding) void this.maintain();
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

/**
 * The price hub's upstreams (DESIGN.md §3.1; ADR 0017, ADR 0030): one OANDA pricing stream per
 * environment for the whole deployment (OANDA allows 20 streams per IP).
 *
 * - The process that holds the PostgreSQL advisory lock `price-hub/<environment>`, taken on a
 *   dedicated connection, opens it; the others take over when that session ends.
 * - It streams the hub's total demand; a wider demand re-opens the stream with the union (bounded
 *   by `MAX_UPSTREAM_INSTRUMENTS`); no demand for the hub's idle time closes it and frees the lock.
 * - It is opened with the token of a broker connection of that environment (ADR 0017; one with an
 *   active bot first, ADR 0030); a token the broker refuses (401/403) is set aside and the next
 *   connection's is tried.
 * - Each connection has a generation (`gen`); prices, heartbeats and the end of a connection go to
 *   the hub (`UpstreamSink`), which fans them out and relays them.
 */
import type postgres from "postgres";
import type { ClientPrice, Environment } from "../../../core/broker/port";
import { BrokerError } from "../../../core/oanda/errors";
import { clientFor } from "../broker/broker.server";
import { decryptSecret } from "../platform/crypto.server";
import { logger } from "../platform/logger.server";
import type { HubStats, Wire } from "./price-hub-types";
import { upstreamCandidates } from "../../../db/queries/price-upstream";
import { isConnectedTo } from "../../../db/queries/broker-connections";

/** First key of the advisory lock (two-int form: this, hashtext(environment)). */
const LOCK_KEY = 0x50524943; // "PRIC"
/** Most instruments on one upstream stream. */
export const MAX_UPSTREAM_INSTRUMENTS = 20;
/** A broker token refused by the broker is not tried again for this long, ms. */
const BAD_TOKEN_MS = 10 * 60_000;
/** The environments of the hub, one upstream each. */
export const ENVIRONMENTS: Environment[] = ["practice", "live"];

/** One environment's upstream in this process: the lock it holds, the stream it runs. */
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

/** What the upstreams hand to the hub. */
export interface UpstreamSink {
  /** Publishes a payload on the hub's channel. */
  notify(w: Wire): Promise<void>;
  /** A price on connection `gen` of `env`. */
  onPrice(env: Environment, p: ClientPrice, gen: string): void;
  /** A heartbeat on connection `gen` of `env`. */
  onHeartbeat(env: Environment, gen: string): void;
  /** Connection `gen` of `env` is gone (dropped, reconnecting or closed). */
  streamDown(env: Environment, gen: string): void;
}

/** The upstream of each environment, as this process sees it (holding its lock or not). */
export class PriceUpstreams {
  private readonly upstreams = new Map<Environment, Upstream>();
  private readonly badTokens = new Map<string, number>();
  private generations = 0;

  /**
   * @param sql the hub's pool (one connection reserved per held lock)
   * @param stats the hub's counters (`holding`, `upstreamOpens` are kept here)
   */
  constructor(
    private readonly sql: postgres.Sql,
    private readonly processId: string,
    private readonly idleMs: number,
    private readonly stats: HubStats,
    private readonly hub: UpstreamSink,
  ) {
    for (const e of ENVIRONMENTS) this.upstreams.set(e, { holding: false, instruments: [], lastLockCheck: 0 });
  }

  /** Whether this process holds the upstream of `env` (its advisory lock). */
  holding(env: Environment): boolean {
    return !!this.upstreams.get(env)?.holding;
  }

  /** Closes every upstream and releases its lock (shutdown). */
  async releaseAll(): Promise<void> {
    for (const [env, up] of this.upstreams) await this.release(env, up);
  }

  /** Takes, keeps, re-opens (wider demand, another token) or, idle, releases the upstream of `env` for `demand`. Throws on a database failure. */
  async maintain(env: Environment, demand: string[]): Promise<void> {
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
      // The reserved connection goes back to the pool whatever happens (a database outage threw here and leaked it).
      const [row] = await conn<{ ok: boolean }[]>`select pg_try_advisory_lock(${LOCK_KEY}, hashtext(${env})) as ok`.catch((err: unknown) => {
        conn.release();
        throw err;
      });
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
      await this.hub.notify({ k: "q", o: this.processId });
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
        if (!(await isConnectedTo(this.sql, up.owner.userId, up.owner.accountId))) {
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
      const candidates = await upstreamCandidates(this.sql, env);
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
            onPrice: (p) => this.hub.onPrice(env, p, gen),
            onHeartbeat: () => this.hub.onHeartbeat(env, gen),
            onReconnect: () => {
              this.hub.streamDown(env, gen);
              gen = this.nextGeneration();
            },
          },
          abort.signal,
        )
        .finally(() => this.hub.streamDown(env, gen))
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

}

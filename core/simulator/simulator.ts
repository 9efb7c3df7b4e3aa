/**
 * The simulator facade: market data + clock + broker state, with the operations the HTTP layer
 * needs. Stops/targets are evaluated lazily (`sync()` before every request) and by a timer in
 * server/simulator/server.ts, walking the path since the last evaluation.
 * Framework-free (DESIGN.md §2): market data, the real-time source and the state store are passed
 * in (server/simulator/ reads the CSV files, passes `Date.now` and a JSON file store).
 */
import type { Environment } from "../broker/port";
import { SimHttpError, createUser } from "./accounts";
import { SimClock } from "./clock";
import type { MarketData } from "./market-data";
import { Pricing } from "./pricing";
import { emptyState, type AccountState, type SimState, type UserState } from "./state";
import { evaluateTriggers } from "./triggers";
import { rfc3339 } from "./time";

/** Default sim start: a Monday with a full week of history before it. */
export const DEFAULT_START_AT = "2026-01-12T08:00:00Z";

/** Where broker state and the sim time persist between runs (e.g. a JSON file: server/simulator/state-store.ts). */
export interface SimStateStore {
  /** The saved state, or undefined when none was saved yet. @throws Error on a corrupt store */
  load(): SimState | undefined;
  save(state: SimState): void;
}

export interface SimulatorOptions {
  /** The candle data replayed (server side: `loadMarketData(dir)`). */
  market: MarketData;
  /** Real-time source, epoch ms (server side: `Date.now`; tests: a fake). */
  now: () => number;
  /** Sim seconds per real second (default 1). */
  speed?: number;
  /** RFC3339 data time at which the sim clock starts (default DEFAULT_START_AT). */
  startAt?: string;
  /** Persists broker state and the sim time (default: none, state lives in memory). */
  store?: SimStateStore;
}

export class Simulator {
  readonly market: MarketData;
  readonly pricing: Pricing;
  readonly clock: SimClock;
  readonly state: SimState;
  private readonly store?: SimStateStore;

  /** @throws Error on a bad `startAt` or a corrupt stored state */
  constructor(opts: SimulatorOptions) {
    this.market = opts.market;
    this.pricing = new Pricing(this.market);
    this.store = opts.store;
    this.state = opts.store?.load() ?? emptyState();
    const start = Date.parse(opts.startAt ?? DEFAULT_START_AT);
    if (!Number.isFinite(start)) throw new Error(`Invalid startAt: ${opts.startAt}`);
    // Time only moves forward: a restored state resumes at its saved sim time when that is later.
    const resume = Math.max(start, this.state.simNow ?? start);
    this.clock = new SimClock(opts.now, resume, opts.speed ?? 1);
    this.state.lastEval ??= resume;
  }

  /** Current sim time, epoch ms. */
  now(): number {
    return this.clock.now();
  }

  /**
   * Evaluates stops/targets up to the current sim time and persists when anything filled.
   * @returns the sim time evaluated to (epoch ms)
   */
  sync(): number {
    const now = this.clock.now();
    const from = this.state.lastEval ?? now;
    if (now > from) {
      const fills = evaluateTriggers(this.pricing, this.state.accounts, from, now);
      this.state.lastEval = now;
      if (fills > 0) this.save();
    }
    return now;
  }

  /** Re-anchors the clock (POST /sim/clock) and returns `{now, speed}` with RFC3339 now. */
  setClock(opts: { speed?: number; advanceSeconds?: number }): { now: string; speed: number } {
    this.sync();
    this.clock.adjust(opts);
    this.sync();
    this.save();
    return { now: rfc3339(this.clock.now()), speed: this.clock.speed };
  }

  /** Creates a user (POST /sim/users); default one USD account with 100000. @throws SimHttpError 400 */
  createUser(environment: Environment, accounts?: { currency: string; balance: string }[]): UserState {
    const now = this.sync();
    const user = createUser(this.state, this.pricing, now, environment, accounts?.length ? accounts : [{ currency: "USD", balance: "100000" }]);
    this.save();
    return user;
  }

  /** Account of a user by id. */
  account(id: string): AccountState | undefined {
    return this.state.accounts.find((a) => a.id === id);
  }

  /**
   * Resolves a bearer token under an environment prefix.
   * @throws SimHttpError 401 when missing, unknown or of the other environment
   */
  authenticate(environment: Environment, authorization: string | undefined): UserState {
    const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
    const user = m ? this.state.users.find((u) => u.token === m[1]) : undefined;
    if (!user || user.environment !== environment) throw new SimHttpError(401, { errorMessage: "Insufficient authorization to perform request." });
    return user;
  }

  /** The user's account `id`. @throws SimHttpError 403 when it is not one of the user's accounts */
  accountOf(user: UserState, id: string): AccountState {
    const acct = user.accountIDs.includes(id) ? this.account(id) : undefined;
    if (!acct) throw new SimHttpError(403, { errorMessage: "The provided request was forbidden." });
    return acct;
  }

  /** Persists the state (when a store is configured), with the current sim time. */
  save(): void {
    if (!this.store) return;
    this.state.simNow = this.clock.now();
    this.store.save(this.state);
  }
}

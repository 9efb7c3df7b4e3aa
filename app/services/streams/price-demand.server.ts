/**
 * The price hub's demand (ADR 0017, ADR 0030): the instruments wanted in each environment — this
 * process's listeners', its bot ticks' (quote-cache.server.ts `demandedInstruments`, the last 2
 * minutes, once `feedingBots`) and those `ensure`d for a while — and what the other processes
 * announce over NOTIFY, dropped when not refreshed.
 */
import type { Environment } from "../../../core/broker/port";
import { demandedInstruments } from "../broker/quote-cache.server";
import type { HubSubscriber } from "./price-hub-types";

/** How often a process re-announces its demand; a remote demand older than 3× this is dropped. */
export const DEMAND_REFRESH_MS = 10_000;
/** How long `ensure` keeps instruments demanded without a connection using them, ms. */
const ENSURE_TTL_MS = 120_000;

/** The demand this process knows of: its own and the other processes'. */
export class PriceDemand {
  private readonly ensured = new Map<Environment, Map<string, number>>();
  private readonly remote = new Map<Environment, Map<string, { instruments: string[]; at: number }>>();
  /** Whether the instruments this process's bot ticks ask the quote cache for are part of its demand (ADR 0030; `feedBots`). */
  feedingBots = false;

  /** Keeps `instruments` demanded in `environment` for `ENSURE_TTL_MS` (POST /api/stream/ensure). */
  ensure(environment: Environment, instruments: string[]): void {
    const m = this.ensured.get(environment) ?? new Map<string, number>();
    for (const i of instruments) m.set(i, Date.now() + ENSURE_TTL_MS);
    this.ensured.set(environment, m);
  }

  /** Another process announced its demand in `environment` (empty: it wants nothing there). */
  heard(environment: Environment, processId: string, instruments: string[]): void {
    const m = this.remote.get(environment) ?? new Map();
    if (instruments.length) m.set(processId, { instruments, at: Date.now() });
    else m.delete(processId);
    this.remote.set(environment, m);
  }

  /** Instruments this process wants in `environment`: its listeners', its bots', the ensured ones (sorted). */
  local(environment: Environment, subscribers: Iterable<HubSubscriber>): string[] {
    const set = new Set<string>();
    for (const s of subscribers) if (s.environment === environment) for (const i of s.instruments) set.add(i);
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

  /** Local ∪ fresh remote demand (sorted). */
  total(environment: Environment, local: string[]): string[] {
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
}

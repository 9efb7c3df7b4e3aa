/**
 * The deferred-sync rule of a steady bot tick (ADR 0027, account-state.server.ts `syncDue`): the
 * stored account state is used without reading the transactions while it was confirmed by a sync in
 * the user's current sync window (windows of ACCOUNT_SYNC_MAX_AGE_SEC, offset per user by
 * `syncPhase`); the first tick of a new window, a state older than the sync age, a moved cursor or a
 * missing `synced_at` sync first. The phases spread the syncs of many bots evenly over the window.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { AccountSummary } from "../../../core/broker/port";
import { syncDue, syncPhase, type StoredAccountState } from "../../../app/services/broker/account-state.server";

/** The default sync age (config ACCOUNT_SYNC_MAX_AGE_SEC = 300 s), ms. */
const AGE = 300_000;
/** A broker clock of the tests (any instant: the windows are cut from the epoch). */
const T0 = Date.parse("2026-03-02T10:00:00Z");

const conn = (userId: string, cursor = "10") => ({ user_id: userId, environment: "practice" as const, account_id: "101-001-1-001", last_transaction_id: cursor });

/** A stored state read a moment ago (wall clock), confirmed by a sync at `syncedAt` (broker clock). */
function stored(syncedAt: number | null, over: Partial<StoredAccountState> = {}): StoredAccountState {
  return {
    environment: "practice",
    account_id: "101-001-1-001",
    summary: { lastTransactionID: "10", balance: "100000.0000", currency: "USD" } as AccountSummary,
    open_trades: [],
    last_transaction_id: "10",
    read_at: new Date(),
    instruments: null,
    instruments_read_at: null,
    synced_at: syncedAt === null ? null : new Date(syncedAt),
    ...over,
  };
}

/** The first whole millisecond of the window of `userId` that contains `t` (windows start at fractions of a ms). */
function windowStart(userId: string, t: number): number {
  const phase = syncPhase(userId) * AGE;
  return Math.ceil(Math.floor((t + phase) / AGE) * AGE - phase);
}

describe("syncDue", () => {
  const user = "c3d1f9a2-5b7e-4a63-9f0e-1d2c3b4a5e6f";
  const start = windowStart(user, T0);

  it("within the user's window a tick does not sync; the first tick of the next window does", () => {
    const s = stored(start + 1000);
    expect(syncDue(s, conn(user), AGE, start + 1000)).toBe(false);
    expect(syncDue(s, conn(user), AGE, start + 60_000)).toBe(false);
    expect(syncDue(s, conn(user), AGE, start + AGE - 1)).toBe(false);
    expect(syncDue(s, conn(user), AGE, start + AGE)).toBe(true);
  });

  it("a state confirmed ACCOUNT_SYNC_MAX_AGE_SEC ago or more syncs, even in the middle of a window", () => {
    const synced = start + AGE / 2;
    expect(syncDue(stored(synced), conn(user), AGE, synced + AGE - 1)).toBe(true); // the next window began
    expect(syncDue(stored(synced), conn(user), AGE, synced + AGE)).toBe(true);
    expect(syncDue(stored(synced), conn(user), AGE, synced + 10 * AGE)).toBe(true);
    // A clock gone back by more than the age (a replay restarted) too; a small drift back does not.
    expect(syncDue(stored(synced), conn(user), AGE, synced - AGE)).toBe(true);
    expect(syncDue(stored(synced), conn(user), AGE, synced - 2000)).toBe(false);
  });

  it("the window is the user's own: at the same instant one user's window turns and another's does not", () => {
    // Another user whose window starts well inside this user's window (phases differ by 10-90 %).
    let other = "";
    for (let i = 0; !other; i++) {
      const offset = (((syncPhase(user) - syncPhase(`user-${i}`)) % 1) + 1) % 1;
      if (offset > 0.1 && offset < 0.9) other = `user-${i}`;
    }
    const otherStart = windowStart(other, start + AGE - 1); // inside (start, start + AGE)
    expect(otherStart).toBeGreaterThan(start);
    expect(otherStart).toBeLessThan(start + AGE);
    const s = stored(start + 1);
    expect(syncDue(s, conn(user), AGE, otherStart)).toBe(false);
    expect(syncDue(s, conn(other), AGE, otherStart)).toBe(true);
    expect(syncDue(s, conn(other), AGE, otherStart - 1)).toBe(false);
  });

  it("a bot ticking every 60 s syncs exactly once per window", () => {
    const first = start + 30_000;
    let synced = first;
    let syncs = 0;
    const windows = new Set<number>();
    for (let now = first + 60_000; now < first + 20 * AGE; now += 60_000) {
      windows.add(windowStart(user, now));
      if (syncDue(stored(synced), conn(user), AGE, now)) {
        syncs++;
        synced = now;
      }
    }
    windows.delete(windowStart(user, first));
    expect(windows.size).toBe(19); // the ticks reach 19 windows after the first
    expect(syncs).toBe(windows.size);
  });

  it("without synced_at, without a stored read, at another cursor or with age 0: due", () => {
    expect(syncDue(stored(null), conn(user), AGE, start + 1000)).toBe(true);
    expect(syncDue(undefined, conn(user), AGE, start + 1000)).toBe(true);
    expect(syncDue(stored(start), conn(user, "11"), AGE, start + 1000)).toBe(true);
    expect(syncDue(stored(start), conn(user), 0, start + 1000)).toBe(true);
    expect(syncDue(stored(start, { read_at: null }), conn(user), AGE, start + 1000)).toBe(true);
    expect(syncDue(stored(start, { account_id: "101-001-1-002" }), conn(user), AGE, start + 1000)).toBe(true);
  });
});

describe("syncPhase", () => {
  it("is stable per user and in [0, 1)", () => {
    for (const id of ["a", "user-1", randomUUID()]) {
      const p = syncPhase(id);
      expect(p).toBe(syncPhase(id));
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(1);
    }
  });

  it("spreads sequential and random ids evenly over the window (10 buckets, 2,000 users)", () => {
    // UUIDs from a seeded generator: the same 2,000 every run (with randomUUID() a bucket beyond 4σ failed a CI run about once in 2,000).
    for (const ids of [Array.from({ length: 2000 }, (_, i) => `user-${i}`), seededUuids(2000, 20261129)]) {
      const buckets = new Array<number>(10).fill(0);
      for (const id of ids) buckets[Math.floor(syncPhase(id) * 10)]!++;
      // 200 expected per bucket; ±30 % is more than 4 standard deviations (σ ≈ 13.4).
      for (const b of buckets) expect(b, JSON.stringify(buckets)).toBeGreaterThan(140);
      for (const b of buckets) expect(b, JSON.stringify(buckets)).toBeLessThan(260);
    }
  });
});

/** `n` version-4-shaped UUIDs from a seeded generator (mulberry32), so a distribution check is repeatable. */
function seededUuids(n: number, seed: number): string[] {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0).toString(16).padStart(8, "0");
  };
  return Array.from({ length: n }, () => {
    const h = next() + next() + next() + next();
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  });
}

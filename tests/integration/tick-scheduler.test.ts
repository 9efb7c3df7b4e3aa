/**
 * Issue 13 (ADR 0024): the tick scheduler claims due bots from `bots.next_tick_at` on the real
 * database. What an operator would notice: two processes never tick a bot twice for one due slot
 * and together tick every due bot; a bot claimed by a process that dies is due again within one
 * interval; a failed tick is retried sooner; a stopped bot is not ticked; starting a bot makes it
 * due now; one bot stuck on its broker does not hold the others; shutdown waits for running ticks.
 *
 * The schedulers run here with a recording tick (the claim, the slots and the bookkeeping are the
 * product's; the tick itself — runTick with its lock and deadline — is exercised end to end by
 * tick-concurrency.test.ts and bot-loop.test.ts on a real app process).
 */
import { afterEach, describe, expect, it } from "vitest";
import { makeTickDue } from "../../app/services/trading/tick-due.server";
import { stopBot } from "../../app/services/trading/bot-stop.server";
import { claimDueTicks } from "../../app/services/trading/tick-due.server";
import { TICK_RETRY_DELAY_SEC, TickScheduler } from "../../app/services/trading/tick-scheduler.server";
import { inProcessApp } from "../setup/in-process";

const testDb = inProcessApp();
let seq = 0;

/** `n` users with an active bot each, due `dueAgoSec` ago (fixed schedule slots), interval `intervalSec`. */
async function bots(n: number, opts: { intervalSec?: number; dueAgoSec?: number } = {}): Promise<string[]> {
  const sql = testDb().sql;
  const rows = Array.from({ length: n }, () => ({ email: `sched-${++seq}-${Date.now()}@teste.com`, password_hash: "x" }));
  const users = await sql<{ id: string }[]>`insert into users ${sql(rows)} returning id`;
  const ids = users.map((u) => u.id);
  await sql`insert into bots (user_id, is_active, interval_sec, next_tick_at)
    select unnest(${ids}::uuid[]), true, ${opts.intervalSec ?? 60}, now() - make_interval(secs => ${opts.dueAgoSec ?? 1})`;
  return ids;
}

async function nextTickAt(userId: string): Promise<Date> {
  const [row] = await testDb().sql<{ next_tick_at: Date }[]>`select next_tick_at from bots where user_id = ${userId}`;
  return row!.next_tick_at;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (bounded) until no tick of the schedulers is running. */
async function drained(...ss: TickScheduler[]): Promise<void> {
  for (let i = 0; i < 200 && ss.some((s) => s.active > 0); i++) await sleep(25);
  expect(ss.map((s) => s.active)).toEqual(ss.map(() => 0));
}

afterEach(async () => {
  await testDb().sql`update bots set is_active = false`; // each test sees only its own due bots
});

describe("tick scheduler on one database", () => {
  it("two schedulers claiming at the same time tick every due bot exactly once for its slot, and move each slot one interval on", async () => {
    const ids = await bots(300, { intervalSec: 60, dueAgoSec: 5 });
    const ticked: { by: string; userId: string }[] = [];
    const slow = (by: string) => async (userId: string) => {
      ticked.push({ by, userId });
      await sleep(5); // the tick's I/O
    };
    const a = new TickScheduler({ concurrency: 16, run: slow("a") });
    const b = new TickScheduler({ concurrency: 16, run: slow("b") });
    const slots: { userId: string; dueAt: Date }[] = [];
    for (let round = 0; round < 100 && slots.length < ids.length; round++) {
      for (const claimed of await Promise.all([a.poll(), b.poll()])) slots.push(...claimed);
      await sleep(10);
    }
    await drained(a, b);

    expect(ticked).toHaveLength(ids.length);
    expect(new Set(ticked.map((t) => t.userId))).toEqual(new Set(ids));
    expect(ticked.filter((t) => t.by === "a").length).toBeGreaterThan(0);
    expect(ticked.filter((t) => t.by === "b").length).toBeGreaterThan(0);
    // Nothing is left due: a third claim finds no bot.
    expect(await claimDueTicks(1000)).toEqual([]);
    // The next slot is the claimed slot + one interval (a fixed schedule), in the future.
    const slot = slots.find((s) => s.userId === ids[0])!;
    expect((await nextTickAt(ids[0]!)).getTime()).toBe(slot.dueAt.getTime() + 60_000);
  });

  it("a bot claimed by a process that died before running it is due again within one interval", async () => {
    const [id] = await bots(1, { intervalSec: 5, dueAgoSec: 1 });
    const [claimed] = await claimDueTicks(10); // the "crashed" process: claimed, never run
    expect(claimed!.userId).toBe(id);
    const next = await nextTickAt(id!);
    expect(next.getTime()).toBe(claimed!.dueAt.getTime() + 5_000);

    // A live process claims it again at its next slot.
    const alive = new TickScheduler({ concurrency: 4, run: async () => {} });
    let again: { userId: string; dueAt: Date } | undefined;
    for (let i = 0; i < 150 && !again; i++) {
      again = (await alive.poll()).find((c) => c.userId === id);
      if (!again) await sleep(100);
    }
    await drained(alive);
    expect(again?.dueAt.getTime()).toBe(next.getTime());
  });

  it("a bot far behind (its slot missed by several intervals) ticks once and keeps its phase, never due in the past", async () => {
    const [id] = await bots(1, { intervalSec: 10, dueAgoSec: 35 });
    const [claimed] = await claimDueTicks(10);
    const next = await nextTickAt(id!);
    expect(next.getTime()).toBe(claimed!.dueAt.getTime() + 40_000); // 4 intervals on: the first slot after now
    expect(await claimDueTicks(10)).toEqual([]);
  });

  it("a tick that fails (the broker's transient error) makes the bot due again after the retry delay, not a whole interval", async () => {
    const [id] = await bots(1, { intervalSec: 300, dueAgoSec: 1 });
    const s = new TickScheduler({
      concurrency: 2,
      run: async () => {
        throw new Error("corretora indisponível");
      },
    });
    const [claimed] = await s.poll();
    await drained(s);
    const now = (await testDb().sql<{ now: Date }[]>`select now()`)[0]!.now;
    const next = await nextTickAt(id!);
    expect(next.getTime()).toBeLessThan(claimed!.dueAt.getTime() + 300_000);
    expect(next.getTime()).toBeLessThanOrEqual(now.getTime() + TICK_RETRY_DELAY_SEC * 1000);
    expect(next.getTime()).toBeGreaterThan(now.getTime() + (TICK_RETRY_DELAY_SEC - 5) * 1000);
  });

  it("a stopped bot is not claimed, and starting a bot (makeTickDue) makes it due now", async () => {
    const [stopped, later] = await bots(2, { intervalSec: 60, dueAgoSec: 1 });
    expect(await stopBot(stopped!)).toBe(true);
    await testDb().sql`update bots set next_tick_at = now() + interval '50 seconds' where user_id = ${later!}`;
    expect(await claimDueTicks(10)).toEqual([]);
    expect(await makeTickDue(stopped!)).toBe(false); // inactive: nothing to make due

    expect(await makeTickDue(later!)).toBe(true);
    const claimed = await claimDueTicks(10);
    expect(claimed.map((c) => c.userId)).toEqual([later]);
  });

  it("a tick stuck on one user's broker holds one slot only: the other bots tick meanwhile", async () => {
    const [stuck] = await bots(1, { intervalSec: 60, dueAgoSec: 10 }); // oldest due: claimed first
    const others = await bots(6, { intervalSec: 60, dueAgoSec: 2 });
    let release: () => void = () => {};
    const hang = new Promise<void>((r) => (release = r));
    const done: string[] = [];
    const s = new TickScheduler({
      concurrency: 3,
      run: async (userId) => {
        if (userId === stuck) await hang;
        else await sleep(5);
        done.push(userId);
      },
    });
    for (let i = 0; i < 50 && done.length < others.length; i++) {
      await s.poll();
      await sleep(20);
    }
    expect(new Set(done)).toEqual(new Set(others));
    expect(s.active).toBe(1); // the stuck tick, still running
    release();
    await drained(s);
    expect(done).toContain(stuck);
  });

  it("shutdown stops claiming and waits for the running ticks (bounded)", async () => {
    await bots(2, { intervalSec: 60, dueAgoSec: 1 });
    let finished = 0;
    const s = new TickScheduler({
      concurrency: 1,
      run: async () => {
        await sleep(300);
        finished++;
      },
    });
    s.start();
    for (let i = 0; i < 100 && s.active === 0; i++) await sleep(20);
    expect(await s.stop(10_000)).toBe(0);
    expect(finished).toBe(1); // the running tick ended; the second bot was never claimed
    expect(await claimDueTicks(10)).toHaveLength(1);
  });
});

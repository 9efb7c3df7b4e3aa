/**
 * Bots priced from the environment's one pricing stream (issue 13, ADR 0030), on a real server
 * (`WORKERS=on`), PostgreSQL and the simulator over HTTP behind a counting proxy, its market moving
 * (speed 60: prices change several times a second, as OANDA's majors do in market hours):
 * - the ticks' instruments become the price hub's demand, so one pricing stream opens for the
 *   environment and, while it is up, steady ticks make no `GET pricing` at all;
 * - while the stream is silent (a stalled stream: no price, no heartbeat), its prices are not served
 *   once more than 1 s old: ticks fall back to the batched read (≤ 1 per second) and keep deciding on
 *   the current market, not on the frozen stream price;
 * - when the stream speaks again, ticks stop reading pricing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { startCountedApp, stopCountedApp } from "../setup/counted-app";
import type { CountingProxy } from "../setup/counting-proxy";
import { userWithBroker, type TradingEnv } from "../setup/trading-env";

/** Sim seconds per real second. */
const SPEED = 60;

let env: TradingEnv;
let app: AppServer;
let proxy: CountingProxy;
type User = Awaited<ReturnType<typeof userWithBroker>>;
const users: User[] = [];

beforeAll(async () => {
  ({ env, proxy, app } = await startCountedApp({ WORKERS: "on" }, { speed: SPEED }));
  for (let i = 0; i < 4; i++) users.push(await userWithBroker(env, app, `stream${i}-${Date.now()}@teste.com`));
}, 120_000);
afterAll(async () => {
  await env?.simCall("DELETE", "/sim/faults");
  await stopCountedApp({ app, proxy, env });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One tick of every user (run-once: the bots are not started, so the scheduler ticks nobody else); returns how many ran (not skipped). */
async function round(): Promise<number> {
  const ran = await Promise.all(
    users.map(async (u) => {
      const res = await u.call("POST", "/api/trades/ai/loop/run-once");
      expect(res.status).toBe(200);
      const body = res.body as { success?: boolean; message?: string };
      if (!body.success) console.log(`tick skipped: ${body.message}`);
      return body.success ? 1 : 0;
    }),
  );
  return ran.reduce<number>((a, b) => a + b, 0);
}

/** Rounds of ticks (at least three) over about `ms` of real time, counted at the proxy; returns the counts by kind, the ticks run and the seconds. */
async function countedRounds(ms: number) {
  proxy.counts.clear();
  proxy.state.counting = true;
  const started = Date.now();
  let ticks = 0;
  let rounds = 0;
  do {
    ticks += await round();
    rounds++;
  } while (Date.now() - started < ms || rounds < 3);
  proxy.state.counting = false;
  return { byKind: Object.fromEntries(proxy.counts), ticks, seconds: (Date.now() - started) / 1000 };
}

/** The market time (the tick's clock: its newest quote's time) of the last decision of each user since `since`. */
async function marketTimesSince(since: Date): Promise<number[]> {
  const rows = await env.db.sql<{ t: string }[]>`
    select distinct on (user_id) payload->>'marketTime' as t from decisions
    where created_at >= ${since} and user_id in ${env.db.sql(users.map((u) => u.userId))}
    order by user_id, id desc`;
  return rows.map((r) => Date.parse(r.t));
}

describe("bot ticks priced from the shared stream", () => {
  it("with the stream up, steady ticks make no pricing request; stalled, they poll (≤ 1/s) on current prices; back, none again", { timeout: 180_000 }, async () => {
    // First ticks: the quote cache learns the instruments, the hub (WORKERS=on) opens one stream with them.
    await round();
    for (let i = 0; i < 50 && env.sim.openStreams() === 0; i++) await sleep(200);
    expect(env.sim.openStreams()).toBe(1);
    await sleep(1500); // the snapshot, and a few moves
    await round(); // candles and account states warm

    const upSince = new Date();
    const up = await countedRounds(3000);
    console.log(`stream up: ${up.ticks} ticks in ${up.seconds.toFixed(1)} s: ${JSON.stringify(up.byKind)}`);
    expect(up.byKind["GET transactions/sinceid"]).toBeGreaterThan(0); // the ticks did reach the broker
    expect(up.ticks).toBeGreaterThanOrEqual(2 * users.length);
    expect(up.byKind["GET pricing"] ?? 0).toBe(0);
    expect(env.sim.openStreams()).toBe(1); // one stream for the environment, however many bots
    // The ticks did decide on prices, current ones: their clock (newest quote time) is the market's now
    // give or take about one second of real time.
    const upTimes = await marketTimesSince(upSince);
    expect(upTimes.length).toBe(users.length);
    for (const t of upTimes) expect(env.sim.sim.now() - t).toBeLessThan((up.seconds + 2) * SPEED * 1000);

    // The stream goes silent (no price, no heartbeat) for 8 s: after 1 s its prices are no longer served.
    await env.simCall("POST", "/sim/faults", { kind: "stall_stream", durationSeconds: 8 });
    const stalledAt = env.sim.sim.now();
    await sleep(1500);
    const since = new Date();
    const down = await countedRounds(3000);
    console.log(`stream stalled: ${down.ticks} ticks in ${down.seconds.toFixed(1)} s: ${JSON.stringify(down.byKind)}`);
    expect(down.byKind["GET pricing"] ?? 0).toBeGreaterThan(0);
    expect(down.byKind["GET pricing"] ?? 0).toBeLessThanOrEqual(Math.ceil(down.seconds) + 1);
    // Correct prices: each tick's clock (its newest quote's time) is the market's now give or take one
    // second of real time (SPEED sim seconds), well past the frozen stream's last price (≥ 90 sim s before).
    const times = await marketTimesSince(since);
    expect(times.length).toBe(users.length);
    for (const t of times) expect(t).toBeGreaterThan(stalledAt + 1.4 * SPEED * 1000 - SPEED * 1000);
    const simNow = env.sim.sim.now();
    for (const t of times) expect(simNow - t).toBeLessThan(down.seconds * SPEED * 1000 + 2 * SPEED * 1000);

    // The stall ends (the client may have reconnected meanwhile): the stream speaks again, pricing stops.
    await env.simCall("DELETE", "/sim/faults");
    await sleep(2500);
    const back = await countedRounds(2000);
    console.log(`stream back: ${back.ticks} ticks in ${back.seconds.toFixed(1)} s: ${JSON.stringify(back.byKind)}`);
    expect(back.byKind["GET pricing"] ?? 0).toBe(0);
  });
});

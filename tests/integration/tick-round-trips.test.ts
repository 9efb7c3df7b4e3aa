/**
 * What one bot tick costs (issue 7: SQL round trips; issue 13: broker requests, ADR 0025 and 0027),
 * on a real server, PostgreSQL and the simulator (clock stopped) behind a counting proxy, with the
 * three default instruments. The steady ticks are scheduled ones (a `WORKERS=on` process claims the
 * bots a test makes due): a forced tick (run-once) always syncs first (ADR 0027).
 * - SQL: the statements of each tick (db.server.ts `countStatementsIn`, logged per tick at debug
 *   level) stay within 10 in steady state (before the executor work a tick made about 50);
 * - broker: once the shared caches are warm (quotes, candles, the stored account state and
 *   instrument list) and the stored state was confirmed within the sync age, a tick that opens and
 *   closes nothing asks the broker nothing of its own — not even the transactions since its cursor —
 *   and pricing is shared (ADR 0027);
 * - a tick whose engine decides to open syncs first and gates the order on the fresh state: a trade
 *   opened at the broker since the stored read (max concurrent trades reached) refuses it;
 * - what changes at the broker outside an order of ours is seen once the sync age has passed: a
 *   trade opened and closed outside the product reaches the books and the stored balance then, and
 *   meanwhile the tick's NAV (stored trades valued at the shared quotes) is the broker's own, also
 *   after the simulator's clock jumps;
 * - the ticks a claim starts together share their statements (ADR 0032: lock, context read,
 *   decisions insert, bot update and unlock, one statement each per batch): on average a steady tick
 *   of a batch of 20 costs a fraction of the 5 statements a lone tick sends, and one bot of the batch
 *   whose broker answers 500 fails alone: the others' ticks are recorded, it is retried after
 *   TICK_RETRY_DELAY_SEC.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { brokerEnv } from "../setup/broker-env";
import { startCountedApp, stopCountedApp } from "../setup/counted-app";
import type { CountingProxy } from "../setup/counting-proxy";
import { tickUntil, userWithBroker, type TradingEnv, tradeWithoutEdge } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;
let proxy: CountingProxy;

beforeAll(async () => {
  ({ env, proxy, app } = await startCountedApp({ WORKERS: "off", LOG_LEVEL: "debug" }));
}, 120_000);
afterAll(async () => {
  await stopCountedApp({ app, proxy, env });
});

/** A `WORKERS=on` process for the scheduled ticks of "what a bot tick costs" (stopped after it). */
let scheduler: AppServer | undefined;

/** The debug lines `msg` of `userId`'s ticks so far (forced ones in `app`, scheduled ones in `scheduler`), parsed, oldest first. */
function logged<T>(userId: string, msg: string): T[] {
  return [app, scheduler]
    .flatMap((a) => (a ? a.output().split("\n") : []))
    .filter((l) => l.includes(`"msg":"${msg}"`) && l.includes(userId))
    .map((l) => JSON.parse(l.slice(l.indexOf("{"))) as T & { time: number })
    .sort((a, b) => a.time - b.time);
}

type User = Awaited<ReturnType<typeof userWithBroker>>;
const runOnce = async (u: User) => expect((await u.call("POST", "/api/trades/ai/loop/run-once")).status).toBe(200);

/** Waits (bounded) until each of `users` has more "tick account" lines than `before` says. */
async function ticksAfter(users: User[], before: Map<string, number>) {
  const behind = () => users.filter((u) => logged(u.userId, "tick account").length <= before.get(u.userId)!);
  for (let i = 0; i < 600 && behind().length; i++) await new Promise((r) => setTimeout(r, 100));
  expect(behind().map((u) => u.userId)).toEqual([]);
}
const tickCounts = (users: User[]) => new Map(users.map((u) => [u.userId, logged(u.userId, "tick account").length]));

/** Starts the users' bots with a 1-hour interval (they tick when started, then only when `scheduledTick` makes them due) and waits for the first ticks. */
async function startBots(users: User[]) {
  const before = tickCounts(users);
  for (const u of users) expect((await u.call("POST", "/api/trades/ai/loop/start", { intervalSec: 3600 })).status).toBe(200);
  await ticksAfter(users, before);
}

/** One scheduled (not forced) tick of each of `users`: their bots made due now, claimed by the worker. */
async function scheduledTick(...users: User[]) {
  const before = tickCounts(users);
  await env.db.sql`update bots set next_tick_at = now() where user_id = any(${users.map((u) => u.userId)}::uuid[])`;
  await ticksAfter(users, before);
}

/** The simulator's own account summary (not through the proxy: not counted). */
async function simSummary(u: User) {
  const res = await fetch(`${env.sim.url}/practice/v3/accounts/${u.accountId}/summary`, { headers: { authorization: `Bearer ${u.brokerToken}` } });
  return ((await res.json()) as { account: { NAV: string; balance: string; lastTransactionID: string } }).account;
}

/** A request straight to the simulator with the user's broker token, as the broker's own platform would. */
async function atBroker(u: User, method: string, path: string, body?: unknown) {
  const res = await fetch(`${env.sim.url}/practice/v3/accounts/${u.accountId}${path}`, {
    method,
    headers: { authorization: `Bearer ${u.brokerToken}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

describe("what a bot tick costs", () => {
  beforeAll(async () => {
    scheduler = await env.startApp({ WORKERS: "on", LOG_LEVEL: "debug", ...brokerEnv(proxy.url) });
  }, 120_000);
  afterAll(async () => {
    await scheduler?.stop();
    scheduler = undefined;
  });

  it("a steady-state tick over EUR_USD, GBP_USD and USD_JPY stays within 10 SQL round trips", async () => {
    const u = await userWithBroker(env, app);
    // The first tick fills the shared candle cache and the stored account state; later ticks reuse them.
    for (let i = 0; i < 3; i++) await runOnce(u);
    const counts = logged<{ sqlRoundTrips: number }>(u.userId, "tick").map((l) => l.sqlRoundTrips);
    expect(counts.length).toBe(3);
    const steady = counts[counts.length - 1]!;
    console.log(`SQL round trips per tick: ${counts.join(", ")}`);
    expect(steady).toBeGreaterThan(0);
    expect(steady).toBeLessThanOrEqual(Number(process.env.TICK_SQL_BUDGET ?? 10));
  });

  it("steady-state ticks from a fresh stored state make no broker request of their own; pricing is shared", { timeout: 240_000 }, async () => {
    const users: User[] = [];
    for (let i = 0; i < 20; i++) users.push(await userWithBroker(env, app, `steady${i}-${Date.now()}@teste.com`));
    // Warm-up: the stored account states (read and confirmed by a sync), instrument lists, candles.
    await startBots(users);
    await scheduledTick(...users);
    const before = new Map(users.map((u) => [u.userId, logged(u.userId, "tick account").length]));
    proxy.counts.clear();
    proxy.state.counting = true;
    const rounds = 3;
    const started = Date.now();
    for (let round = 0; round < rounds; round++) await scheduledTick(...users);
    const seconds = (Date.now() - started) / 1000;
    proxy.state.counting = false;
    const ticks = users.length * rounds;
    const byKind = Object.fromEntries(proxy.counts);
    const total = proxy.total();
    // Ticks that synced anyway (a bot's sync window turned during the run): each reads the transactions once.
    const synced = users.flatMap((u) => logged<{ synced: boolean }>(u.userId, "tick account").slice(before.get(u.userId))).filter((l) => l.synced).length;
    console.log(`broker requests over ${ticks} steady ticks in ${seconds.toFixed(1)} s: ${total} (${(total / ticks).toFixed(3)} per tick), ${synced} synced ${JSON.stringify(byKind)}`);
    expect(synced).toBeLessThanOrEqual(ticks / 10);
    expect(byKind["GET transactions/sinceid"] ?? 0).toBe(synced);
    for (const k of Object.keys(byKind)) expect(["GET transactions/sinceid", "GET pricing"], k).toContain(k);
    // Pricing: at most one read per second for the whole environment, however many ticks ask.
    expect(byKind["GET pricing"] ?? 0).toBeLessThanOrEqual(Math.floor(seconds) + 1);
    expect(total / ticks).toBeLessThanOrEqual(0.35);
    for (const u of users) expect((await u.call("POST", "/api/trades/ai/loop/stop")).status).toBe(200);
  });

  it("an opening decided on the stored state syncs first and is refused when the broker's fresh state fails the risk gate", { timeout: 240_000 }, async () => {
    // Two users with the same settings on the same simulator: the engine decides the same for both at a market time.
    const [a, b] = [await userWithBroker(env, app, `gate-a-${Date.now()}@teste.com`), await userWithBroker(env, app, `gate-b-${Date.now()}@teste.com`)];
    for (const u of [a, b]) expect((await u.call("PUT", "/api/settings", { maxTrades: 1 })).status).toBe(200);
    for (const u of [a, b]) await tradeWithoutEdge(u.call); // the AI trades despite no proven edge (the edge gate's override, issue 21)
    // b's stored state: read and confirmed (the first tick learns the simulator's clock, the second syncs on it).
    await startBots([b]);
    await runOnce(b);
    const bTrades = async () => (await env.db.sql<{ n: number }[]>`select count(*)::int as n from trades where user_id = ${b.userId}`)[0]!.n;
    expect(await bTrades()).toBe(0);
    // a ticks along the market until its engine opens a trade: at that market time b's engine decides "open" too.
    const opened = await tickUntil(env, a.call, async () => (await env.db.sql`select 1 from trades where user_id = ${a.userId}`).length > 0);
    expect(opened).toBe(true);
    // Meanwhile a trade was opened on b's account at the broker: b's stored state does not show it.
    await atBroker(b, "POST", "/orders", { order: { type: "MARKET", instrument: "USD_JPY", units: "1000", timeInForce: "FOK", positionFill: "DEFAULT" } });
    const decisionsBefore = (await env.db.sql<{ n: number }[]>`select count(*)::int as n from decisions where user_id = ${b.userId}`)[0]!.n;
    proxy.counts.clear();
    proxy.state.counting = true;
    await scheduledTick(b);
    proxy.state.counting = false;
    const tick = await env.db.sql<{ instrument: string; action: string; executed: boolean; risk_code: string }[]>`
      select instrument, action, executed, risk_code from decisions where user_id = ${b.userId} order by id offset ${decisionsBefore}`;
    const opening = tick.find((d) => d.action === "open");
    expect(opening, JSON.stringify(tick)).toBeDefined();
    expect(opening).toMatchObject({ executed: false, risk_code: "max_trades" });
    // b's tick began from its stored state (no sync) and synced before the order.
    expect(logged<{ deferred: boolean; synced: boolean }>(b.userId, "tick account").at(-1)).toMatchObject({ deferred: true, synced: true });
    expect(proxy.counts.get("GET transactions/sinceid")).toBe(1);
    expect(proxy.counts.get("POST orders")).toBeUndefined();
    expect((await env.db.sql`select 1 from order_intents where user_id = ${b.userId}`).length).toBe(0);
    expect(await bTrades()).toBe(1); // the broker's trade, booked by that sync
    expect((await b.call("POST", "/api/trades/ai/loop/stop")).status).toBe(200);
  });

  it("a trade opened and closed at the broker is seen once the sync age has passed; meanwhile the tick's NAV is the broker's, across clock jumps", async () => {
    const u = await userWithBroker(env, app, `broker-side-${Date.now()}@teste.com`);
    // The AI itself opens nothing while the outside trade is open, nor after it (one trade a day).
    expect((await u.call("PUT", "/api/settings", { maxTrades: 1, maxDailyTrades: 1 })).status).toBe(200);
    // The first tick learns the simulator's clock (it replays history); the second syncs on it.
    await startBots([u]);
    await scheduledTick(u);
    type AccountLine = { nav: string; balance: string; accountSource: string; synced: boolean };
    let tradeId = "";
    const last = () => logged<AccountLine>(u.userId, "tick account").at(-1)!;
    const trade = async () =>
      (await env.db.sql<{ status: string; realized_pl: string | null }[]>`
        select status, realized_pl::text from trades where user_id = ${u.userId} and broker_trade_id = ${tradeId}`)[0];
    // As if the sync age (ACCOUNT_SYNC_MAX_AGE_SEC, 300 s by default) had passed since the last sync.
    const syncAgePasses = () => env.db.sql`update account_states set synced_at = synced_at - interval '300 seconds' where user_id = ${u.userId}`;

    // Opened outside the product: not seen while the stored state is within its sync age…
    const opened = await atBroker(u, "POST", "/orders", { order: { type: "MARKET", instrument: "EUR_USD", units: "10000", timeInForce: "FOK", positionFill: "DEFAULT" } });
    tradeId = (opened.orderFillTransaction as { tradeOpened: { tradeID: string } }).tradeOpened.tradeID;
    await scheduledTick(u);
    expect(last()).toMatchObject({ accountSource: "stored", synced: false });
    expect(await trade()).toBeUndefined();
    // …then the next tick syncs, reads the broker (its transaction moved the cursor) and books it.
    await syncAgePasses();
    await scheduledTick(u);
    expect(last()).toMatchObject({ accountSource: "broker", synced: true });
    expect((await trade())?.status).toBe("open");

    // Nothing happens: the stored state valued at the shared quotes gives the broker's NAV.
    await scheduledTick(u);
    expect(last()).toMatchObject({ accountSource: "stored", synced: false });
    expect(last().nav).toBe((await simSummary(u)).NAV);

    // The simulator's clock jumps 10 minutes (prices move, no transaction): the quotes follow at once.
    const before = last().nav;
    await env.simCall("POST", "/sim/clock", { advanceSeconds: 600 });
    await new Promise((r) => setTimeout(r, 1100)); // the environment's quotes are shared for up to a second
    await scheduledTick(u);
    const sim = await simSummary(u);
    expect(last().accountSource).toBe("stored");
    expect(last().nav).toBe(sim.NAV);
    expect(sim.NAV).not.toBe(before);

    // Closed at the broker: the first tick past the sync age books the close with the broker's P&L and stores the new balance.
    const closed = await atBroker(u, "PUT", `/trades/${tradeId}/close`, { units: "ALL" });
    const pl = (closed.orderFillTransaction as { pl: string }).pl;
    await syncAgePasses();
    await scheduledTick(u);
    const after = await simSummary(u);
    expect(last()).toMatchObject({ accountSource: "broker", synced: true });
    expect(last().balance).toBe(after.balance);
    expect(last().nav).toBe(after.NAV);
    const booked = await trade();
    expect(booked?.status).toBe("closed");
    expect(Number(booked?.realized_pl)).toBeCloseTo(Number(pl), 4);
    const [stored] = await env.db.sql<{ balance: string; last_transaction_id: string }[]>`
      select summary->>'balance' as balance, last_transaction_id from account_states where user_id = ${u.userId}`;
    expect(stored?.balance).toBe(after.balance);
    expect(stored?.last_transaction_id).toBe(after.lastTransactionID);
    expect((await u.call("POST", "/api/trades/ai/loop/stop")).status).toBe(200);
  });
});

describe("a batch of ticks claimed together (ADR 0032)", () => {
  let worker: AppServer;
  let failing: http.Server;
  let failed = 0;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  beforeAll(async () => {
    // Live accounts go to a broker that answers 500 to everything; practice ones to the simulator.
    failing = http.createServer((_req, res) => {
      failed++;
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ errorMessage: "Internal Server Error" }));
    });
    await new Promise<void>((r) => failing.listen(0, "127.0.0.1", r));
    const failingUrl = `http://127.0.0.1:${(failing.address() as { port: number }).port}`;
    // A WORKERS=on process: its scheduler claims the due bots (the run-once app above has none).
    worker = await env.startApp({
      WORKERS: "on",
      LOG_LEVEL: "debug",
      ...brokerEnv(proxy.url),
      OANDA_LIVE_API_URL: failingUrl,
      OANDA_LIVE_STREAM_URL: failingUrl,
    });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await new Promise((r) => failing?.close(r));
  });

  type TickLine = { userId: string; sqlRoundTrips: number; time: number };
  type DueLine = { userId: string; time: number };
  const lines = <T>(msg: string, ids: Set<string>): T[] =>
    worker
      .output()
      .split("\n")
      .filter((l) => l.includes(`"msg":"${msg}"`))
      .map((l) => JSON.parse(l.slice(l.indexOf("{"))) as T & { userId: string })
      .filter((o) => ids.has(o.userId));
  /** Waits (bounded) until every bot of `ids` has a tick ended in the worker after the first `skip` lines of theirs; the first such tick of each. */
  async function ticked(ids: string[], skip: number): Promise<TickLine[]> {
    const set = new Set(ids);
    const firstEach = () => {
      const seen = new Map<string, TickLine>();
      for (const t of lines<TickLine>("tick", set).slice(skip)) if (!seen.has(t.userId)) seen.set(t.userId, t);
      return seen;
    };
    for (let i = 0; i < 300 && firstEach().size < ids.length; i++) await sleep(100);
    const got = firstEach();
    expect(got.size).toBe(ids.length);
    return [...got.values()];
  }
  /** Makes the bots due now and waits (bounded) until each ticked once more in the worker; the first such tick of each. */
  async function round(ids: string[]) {
    const before = lines<TickLine>("tick", new Set(ids)).length;
    await env.db.sql`update bots set next_tick_at = now() where user_id = any(${ids}::uuid[])`;
    return ticked(ids, before);
  }
  /** `n` users with a connected account and an active bot (1-hour interval: it ticks only when a test makes it due). */
  async function botUsers(n: number, tag: string): Promise<User[]> {
    const users: User[] = [];
    for (let i = 0; i < n; i++) users.push(await userWithBroker(env, app, `${tag}${i}-${Date.now()}@teste.com`));
    for (const u of users) expect((await u.call("POST", "/api/trades/ai/loop/start", { intervalSec: 3600 })).status).toBe(200);
    return users;
  }

  it("the steady ticks of one claim share their statements: on average at most 2 SQL statements per tick (a lone tick: 5)", { timeout: 240_000 }, async () => {
    const users = await botUsers(20, "batch");
    const ids = users.map((u) => u.userId);
    // Warm-up: the first ticks (started by the loop's start) and one more round fill the stored states and caches.
    await ticked(ids, 0);
    await round(ids);
    const ticks = await round(ids);
    const dues = [...new Map(lines<DueLine>("tick devido", new Set(ids)).map((d) => [d.userId, d])).values()]; // the last claim of each
    const counts = ticks.map((t) => t.sqlRoundTrips);
    const mean = counts.reduce((a, c) => a + c, 0) / counts.length;
    console.log(`SQL statements per tick over a claimed batch of ${ids.length}: mean ${mean.toFixed(2)} (${counts.map((c) => c.toFixed(2)).join(", ")}); claimed within ${Math.max(...dues.map((d) => d.time)) - Math.min(...dues.map((d) => d.time))} ms`);
    expect(mean).toBeGreaterThan(0);
    expect(mean).toBeLessThanOrEqual(2);
    // Every tick was recorded: its decisions and its bot's last tick time.
    const rows = await env.db.sql<{ user_id: string; last_tick_at: Date; last_tick_error: string | null; decided: number }[]>`
      select b.user_id::text, b.last_tick_at, b.last_tick_error,
        (select count(*)::int from decisions d where d.user_id = b.user_id) as decided
      from bots b where b.user_id = any(${ids}::uuid[])`;
    expect(rows).toHaveLength(ids.length);
    for (const r of rows) {
      expect(r.last_tick_error).toBeNull();
      expect(r.decided).toBeGreaterThanOrEqual(3 * 3); // at least three ticks × three instruments
    }
    for (const u of users) expect((await u.call("POST", "/api/trades/ai/loop/stop")).status).toBe(200);
  });

  it("one bot of the batch whose broker answers 500 fails alone: the others' ticks are recorded and it is retried after the retry delay", { timeout: 240_000 }, async () => {
    const users = await botUsers(8, "fail");
    const ids = users.map((u) => u.userId);
    await ticked(ids, 0);
    // The failing bot's account moves to the broker that answers 500.
    const bad = users[3]!;
    await env.db.sql`update broker_connections set environment = 'live' where user_id = ${bad.userId}`;
    const startedAt = (await env.db.sql<{ now: Date }[]>`select now()`)[0]!.now;
    const decidedBefore = (await env.db.sql<{ n: number }[]>`select count(*)::int as n from decisions where user_id = any(${ids}::uuid[])`)[0]!.n;
    const ticks = await round(ids);
    expect(failed).toBeGreaterThan(0);
    // Claimed together: the last claims of the bots within one poll.
    const dues = [...new Map(lines<DueLine>("tick devido", new Set(ids)).map((d) => [d.userId, d])).values()];
    expect(dues).toHaveLength(ids.length);
    expect(Math.max(...dues.map((d) => d.time)) - Math.min(...dues.map((d) => d.time))).toBeLessThan(1000);
    expect(ticks.map((t) => t.userId).sort()).toEqual([...ids].sort());

    const rows = await env.db.sql<{ user_id: string; last_tick_at: Date; last_tick_error: string | null; next_tick_at: Date }[]>`
      select user_id::text, last_tick_at, last_tick_error, next_tick_at from bots where user_id = any(${ids}::uuid[])`;
    const now = (await env.db.sql<{ now: Date }[]>`select now()`)[0]!.now;
    for (const r of rows) {
      expect(r.last_tick_at.getTime()).toBeGreaterThanOrEqual(startedAt.getTime());
      if (r.user_id === bad.userId) {
        expect(r.last_tick_error).toBeTruthy();
        // Retried after TICK_RETRY_DELAY_SEC (10 s), not the 1-hour interval. The retry is armed just after the failed
        // tick is recorded (tick-scheduler.server.ts), so a read right after the round may still see the interval: wait for it.
        await expect
          .poll(
            async () => {
              const [x] = await env.db.sql<{ next: Date; now: Date }[]>`select next_tick_at as next, now() as now from bots where user_id = ${bad.userId}`;
              return x!.next.getTime() - x!.now.getTime();
            },
            { timeout: 5_000 },
          )
          .toBeLessThanOrEqual(10_000);
      } else {
        expect(r.last_tick_error).toBeNull();
        expect(r.next_tick_at.getTime()).toBeGreaterThan(now.getTime() + 3000_000);
      }
    }
    // The others' decisions of this round are stored (three instruments each); the failing bot's tick stored none.
    const decided = await env.db.sql<{ user_id: string; n: number }[]>`
      select user_id::text, count(*)::int as n from decisions where user_id = any(${ids}::uuid[]) group by user_id`;
    const total = decided.reduce((a, d) => a + d.n, 0);
    expect(total - decidedBefore).toBe(3 * (ids.length - 1));
    // The retry: the failing bot ticks again within the retry delay (and fails again), the others do not.
    const set = new Set(ids);
    const seen = lines<TickLine>("tick", set).length;
    for (let i = 0; i < 200 && lines<TickLine>("tick", set).length === seen; i++) await sleep(100);
    const again = lines<TickLine>("tick", set).slice(seen);
    expect(again.map((t) => t.userId)).toEqual([bad.userId]);
    for (const u of users) expect((await u.call("POST", "/api/trades/ai/loop/stop")).status).toBe(200);
  });
});

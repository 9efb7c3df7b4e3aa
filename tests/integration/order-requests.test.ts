/**
 * Broker requests per order (issue 24 "≤ 2 broker requests per order all in", ADR 0042), on a real
 * server, PostgreSQL and the simulator (clock stopped) behind a counting proxy: a bot whose
 * scheduled tick opens a trade, then its next scheduled tick.
 *
 * Counting rule: every request the proxy sees during those two ticks, except `GET pricing` and
 * candle reads (shared per environment by every bot, ADR 0025/0030: at scale ≈ 0 per tick) — so the
 * order POST, every `transactions/sinceid`, `summary`, `openTrades`, `trades/{id}`, `instruments`.
 * A steady tick of that bot costs 0 of them (tick-round-trips.test.ts; the sync age is set to its
 * maximum here so that no sync window turns during the test), so all of them are the order's.
 * Before ADR 0042 that was 6: sinceid before the order (the ADR 0027 gate on fresh state), the
 * POST, sinceid after it (to book the fill), then on the next tick sinceid + summary + openTrades
 * (the fill had made the stored account state stale). Now the fill is booked and the stored state
 * moved from the order's own response: the sinceid before the order and the POST, 2 in all.
 *
 * Between the decision row and the order on the wire nothing of ours but the order intent is
 * written: a "timeframe changed" notice of the same tick is written after the order (it came before).
 * What the user sees stays the broker's: the trade is in the books with the broker's stop loss and
 * take profit, the order intent filled, the 'Trade aberto' notice written, and the next tick's
 * account (stored read valued at the quotes) has the broker's balance, open trades and NAV.
 * When the response is not the whole story — here a trade opened at the broker just before the
 * order reached it — the tick reads the transactions after the order and the next tick reads
 * summary and open trades, as before: both trades reach the books and the stored state.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { brokerEnv } from "../setup/broker-env";
import { startCountedApp, stopCountedApp } from "../setup/counted-app";
import type { CountingProxy } from "../setup/counting-proxy";
import { tickUntil, tradeWithoutEdge, userWithBroker, type TradingEnv } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;
let proxy: CountingProxy;
/** The `WORKERS=on` process that runs the scheduled ticks. */
let scheduler: AppServer;
const SYNC_AGE = { ACCOUNT_SYNC_MAX_AGE_SEC: "1800" };
const METRICS_TOKEN = "order-requests-metrics-token";
/** The decision → order histogram's sum (s) and count on the scheduler's /metrics. */
async function decisionToOrder(): Promise<{ sum: number; count: number }> {
  const text = await (await fetch(`${scheduler.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const value = (name: string) => Number(text.split("\n").find((l) => l.startsWith(`${name} `))?.split(" ")[1] ?? 0);
  return { sum: value("forexia_decision_to_order_seconds_sum"), count: value("forexia_decision_to_order_seconds_count") };
}
/** The pair the first test's bot opened at the market time it found (the second test's bot decides the same there). */
let aiInstrument = "";

beforeAll(async () => {
  ({ env, proxy, app } = await startCountedApp({ WORKERS: "off", LOG_LEVEL: "debug", ...SYNC_AGE }));
  scheduler = await env.startApp({ WORKERS: "on", LOG_LEVEL: "debug", METRICS_TOKEN, ...SYNC_AGE, ...brokerEnv(proxy.url) });
}, 120_000);
afterAll(async () => {
  await scheduler?.stop();
  await stopCountedApp({ app, proxy, env });
});

type User = Awaited<ReturnType<typeof userWithBroker>>;

/** The debug lines `msg` of `userId`'s ticks (both processes), parsed, oldest first. */
function logged<T>(userId: string, msg: string): T[] {
  return [app, scheduler]
    .flatMap((a) => a.output().split("\n"))
    .filter((l) => l.includes(`"msg":"${msg}"`) && l.includes(userId))
    .map((l) => JSON.parse(l.slice(l.indexOf("{"))) as T & { time: number })
    .sort((a, b) => a.time - b.time);
}

/** One scheduled tick of `u`: its bot made due now, claimed by the scheduler; waits for its "tick account" line. */
async function scheduledTick(u: User) {
  const before = logged(u.userId, "tick account").length;
  await env.db.sql`update bots set next_tick_at = now() where user_id = ${u.userId}`;
  for (let i = 0; i < 600 && logged(u.userId, "tick account").length <= before; i++) await new Promise((r) => setTimeout(r, 100));
  expect(logged(u.userId, "tick account").length).toBeGreaterThan(before);
}

/** The simulator's own account and open trades (not through the proxy: not counted). */
async function atBroker<T>(u: User, path: string): Promise<T> {
  const res = await fetch(`${env.sim.url}/practice/v3/accounts/${u.accountId}${path}`, { headers: { authorization: `Bearer ${u.brokerToken}` } });
  return (await res.json()) as T;
}

/** Counted requests by kind, without the shared pricing and candle reads (the counting rule above). */
function ownRequests(): Record<string, number> {
  return Object.fromEntries([...proxy.counts].filter(([k]) => k !== "GET pricing" && !k.includes("candles")));
}

type StateRow = { last_transaction_id: string; balance: string; trades: string[] };
/** The stored account state of `u`: last id, balance, open trade ids. */
async function storedState(u: User): Promise<StateRow | undefined> {
  const [state] = await env.db.sql<StateRow[]>`
    select last_transaction_id, summary->>'balance' as balance, (select array_agg(t->>'id') from jsonb_array_elements(open_trades) t) as trades
    from account_states where user_id = ${u.userId}`;
  return state;
}

describe("broker requests per order", () => {
  it("an order the bot places costs at most 2 broker requests all in (the POST and one sinceid), and its books and account state are the broker's", { timeout: 300_000 }, async () => {
    // Two users with the same settings on the same simulator decide the same at a market time: a finds that time, b opens there.
    const [a, b] = [await userWithBroker(env, app, `ord-a-${Date.now()}@teste.com`), await userWithBroker(env, app, `ord-b-${Date.now()}@teste.com`)];
    for (const u of [a, b]) await tradeWithoutEdge(u.call);
    expect((await b.call("POST", "/api/trades/ai/loop/start", { intervalSec: 3600 })).status).toBe(200);
    for (let i = 0; i < 600 && logged(b.userId, "tick account").length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    await scheduledTick(b); // b's stored account state read and confirmed
    const opened = await tickUntil(env, a.call, async () => (await env.db.sql`select 1 from trades where user_id = ${a.userId}`).length > 0);
    expect(opened).toBe(true);
    // b's ticks would have seen the market's time move as a's did (one simulator clock): b's clock offset follows.
    await env.db.sql`update broker_connections set market_clock_offset_ms = (select market_clock_offset_ms from broker_connections where user_id = ${a.userId}) where user_id = ${b.userId}`;

    // b's previous decisions said another timeframe: the order's tick also tells b that the timeframe changed.
    await env.db.sql`update decisions set timeframe = 'W' where user_id = ${b.userId}`;
    const clockBefore = await decisionToOrder();
    proxy.counts.clear();
    proxy.state.counting = true;
    await scheduledTick(b); // decides "open" and places the order
    const orderTick = ownRequests();
    const clockAfter = await decisionToOrder();
    proxy.counts.clear();
    await scheduledTick(b); // the next tick
    const nextTick = ownRequests();
    proxy.state.counting = false;
    const total = [...Object.values(orderTick), ...Object.values(nextTick)].reduce((s, n) => s + n, 0);
    console.log(`broker requests of the order: tick with the order ${JSON.stringify(orderTick)}, next tick ${JSON.stringify(nextTick)}: ${total}`);
    // The order's decision → order on the wire (forexia_decision_to_order_seconds): one observation, this order's.
    expect(clockAfter.count - clockBefore.count).toBe(1);
    console.log(`decision → order on the wire: ${((clockAfter.sum - clockBefore.sum) * 1000).toFixed(1)} ms`);

    const [trade] = await env.db.sql<{ broker_trade_id: string; stop_loss: string | null; take_profit: string | null; client_order_id: string; origin: string }[]>`
      select broker_trade_id, stop_loss::text, take_profit::text, client_order_id, origin from trades where user_id = ${b.userId}`;
    expect(trade, "b's tick opened a trade").toBeDefined();
    aiInstrument = (await env.db.sql<{ instrument: string }[]>`select instrument from trades where user_id = ${b.userId}`)[0]!.instrument;
    expect(orderTick["POST orders"]).toBe(1);
    expect(total).toBeLessThanOrEqual(2);

    // The books are the broker's: trade, its stop loss and take profit, the intent filled, the notice.
    const broker = await atBroker<{ trades: { id: string; stopLossOrder?: { price: string }; takeProfitOrder?: { price: string } }[] }>(b, "/openTrades");
    const bt = broker.trades.find((t) => t.id === trade!.broker_trade_id)!;
    expect(Number(trade!.stop_loss)).toBe(Number(bt.stopLossOrder!.price));
    expect(Number(trade!.take_profit)).toBe(Number(bt.takeProfitOrder!.price));
    expect(trade!.origin).toBe("ai");
    const [intent] = await env.db.sql<{ status: string; broker_trade_id: string | null }[]>`
      select status, broker_trade_id from order_intents where user_id = ${b.userId} and client_order_id = ${trade!.client_order_id}`;
    expect(intent).toMatchObject({ status: "filled", broker_trade_id: trade!.broker_trade_id });
    const notes = await env.db.sql`select 1 from notifications where user_id = ${b.userId} and metadata->>'tradeId' = ${trade!.broker_trade_id}`;
    expect(notes.length).toBe(1);
    // Between the decision row and the order on the wire only the order intent is written: the timeframe notice comes after the order.
    const [order] = await env.db.sql<{ at: Date }[]>`select created_at as at from order_intents where user_id = ${b.userId} and client_order_id = ${trade!.client_order_id}`;
    const changed = await env.db.sql<{ at: Date }[]>`
      select created_at as at from notifications where user_id = ${b.userId} and title_msg->>'key' = 'notices:timeframeChanged.title' and metadata->>'from' = 'W'`;
    expect(changed.length).toBeGreaterThan(0);
    for (const n of changed) expect(n.at.getTime()).toBeGreaterThan(order!.at.getTime());

    // The stored account state and the cursor are at the broker's last transaction, with its balance and trades.
    const { account } = await atBroker<{ account: { balance: string; NAV: string; lastTransactionID: string } }>(b, "/summary");
    const state = await storedState(b);
    const [conn] = await env.db.sql<{ last_transaction_id: string }[]>`select last_transaction_id from broker_connections where user_id = ${b.userId}`;
    expect(state).toMatchObject({ last_transaction_id: account.lastTransactionID, balance: account.balance });
    expect(state!.trades.sort()).toEqual(broker.trades.map((t) => t.id).sort());
    expect(conn!.last_transaction_id).toBe(account.lastTransactionID);
    // The next tick worked from that stored state, valued at the quotes: the broker's NAV (clock stopped).
    const last = logged<{ accountSource: string; nav: string; balance: string }>(b.userId, "tick account").at(-1)!;
    expect(last.accountSource).toBe("stored");
    expect(last.balance).toBe(account.balance);
    expect(Math.abs(Number(last.nav) - Number(account.NAV))).toBeLessThan(0.01);
  });

  it("an order whose response is not the whole story since the cursor (a trade opened at the broker just before it) is booked by reading the broker, as before", { timeout: 300_000 }, async () => {
    // The market time the first test found is still the simulator's (clock stopped): c's first tick decides "open" there.
    const c = await userWithBroker(env, app, `ord-c-${Date.now()}@teste.com`);
    await tradeWithoutEdge(c.call);
    let outside: string | undefined;
    // Another of the default pairs than the AI's (no netting with its order: the fill only opens).
    const other = ["EUR_USD", "GBP_USD", "USD_JPY"].find((i) => i !== aiInstrument)!;
    // Just before c's order reaches the broker, a trade is opened on c's account outside the product.
    proxy.state.before = async (method, url) => {
      if (outside || method !== "POST" || !url.includes(`/accounts/${c.accountId}/orders`)) return;
      outside = "pending";
      const res = await fetch(`${env.sim.url}/practice/v3/accounts/${c.accountId}/orders`, {
        method: "POST",
        headers: { authorization: `Bearer ${c.brokerToken}`, "content-type": "application/json" },
        body: JSON.stringify({ order: { type: "MARKET", instrument: other, units: "1000", timeInForce: "FOK", positionFill: "DEFAULT" } }),
      }).catch(() => undefined);
      const body = (await res?.json().catch(() => undefined)) as { orderFillTransaction?: { tradeOpened?: { tradeID: string } } } | undefined;
      outside = body?.orderFillTransaction?.tradeOpened?.tradeID ?? "failed";
    };
    proxy.counts.clear();
    proxy.state.counting = true;
    try {
      expect((await c.call("POST", "/api/trades/ai/loop/start", { intervalSec: 3600 })).status).toBe(200);
      for (let i = 0; i < 600 && logged(c.userId, "tick account").length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    } finally {
      proxy.state.before = undefined;
    }
    const orderTick = ownRequests();
    expect(orderTick["POST orders"], JSON.stringify(orderTick)).toBe(1);
    expect(outside).toMatch(/^\d+$/);
    // Not booked from the response: the transactions were read after the order (the sync before it, the one after).
    expect(orderTick["GET transactions/sinceid"]).toBe(2);
    proxy.counts.clear();
    await scheduledTick(c);
    const nextTick = ownRequests();
    proxy.state.counting = false;
    console.log(`fallback: tick with the order ${JSON.stringify(orderTick)}, next tick ${JSON.stringify(nextTick)}`);
    // The next tick read summary and open trades: the stored state was behind the cursor.
    expect(nextTick).toMatchObject({ "GET summary": 1, "GET openTrades": 1 });
    expect(logged<{ accountSource: string }>(c.userId, "tick account").at(-1)!.accountSource).toBe("broker");

    const books = await env.db.sql<{ broker_trade_id: string; origin: string }[]>`select broker_trade_id, origin from trades where user_id = ${c.userId} order by broker_trade_id`;
    const broker = await atBroker<{ trades: { id: string }[] }>(c, "/openTrades");
    expect(books.map((t) => t.broker_trade_id).sort()).toEqual(broker.trades.map((t) => t.id).sort());
    expect(books.map((t) => t.origin).sort()).toEqual(["ai", "manual"]);
    const { account } = await atBroker<{ account: { balance: string; lastTransactionID: string } }>(c, "/summary");
    const state = await storedState(c);
    expect(state).toMatchObject({ last_transaction_id: account.lastTransactionID, balance: account.balance });
    expect(state!.trades.sort()).toEqual(broker.trades.map((t) => t.id).sort());
  });
});

/**
 * Issue 8 "And prove it stays that way": the crash test. The real server (production build) is
 * killed with SIGKILL 24 times (`CRASH_KILLS`: e.g. 50 as before ADR 0023's amendment, or 200 for a
 * soak) at random points across ticks, manual closes and reconciles, and restarted each time on the
 * same database, with a standalone simulator over HTTP (the broker's state
 * survives every restart). Each life of the server gets one of:
 * - a named crash point and call number (`CRASH_AT=<point>@<n>`, app/services/platform/crash-points.ts): the
 *   points are drawn in turn, and the last lives are forced onto the points no life has died at yet
 *   (ADR 0023: 24 kills instead of 50 halve the test's time; every point is reached or aimed at);
 * - a seeded probability on every point (`CRASH_AT=random:<seed>:<p>`);
 * - no CRASH_AT: the test kills the process at a random wall-clock moment while ticks and closes
 *   are in flight (also the fallback for a life whose point was not reached in its steps).
 * Each step advances the simulator's clock, runs a tick for every user (run-once) and, at the same
 * time, sometimes closes one of their trades (all or part) through our API or disconnects and
 * connects their account again (the reconnect's reconcile replays from the kept id with a sweep).
 *
 * At the end, after a clean restart and reconcile: 0 duplicate orders (no client order id or
 * decision with two orders, fills or trades at the broker, no order without an intent here), 0 lost
 * or corrupted trades (every broker trade is in `trades` with the broker's instrument, side, open
 * price and time, units, status, close time and realized P&L, and nothing else is), and the risk
 * counters (core/trading/counters.ts) over our books equal those over a clean replay of the broker's
 * transactions, at many instants of the run.
 *
 * `CRASH_SEED` replays a run's draws (the wall-clock moments still vary). Figures: docs/RELIABILITY.md.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRASH_POINTS, seededRandom } from "../../app/services/platform/crash-points";
import { Decimal } from "../../core/decimal";
import { deriveRiskCounters, type CounterTrade } from "../../core/trading/counters";
import { apiClient, type AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv, tradeWithoutEdge } from "../setup/trading-env";

/** Server lives, each ended by a SIGKILL (ADR 0023: 24 by default, every named point aimed at at least once). */
const KILLS = Number(process.env.CRASH_KILLS ?? 24);
/** Steps a CRASH_AT life may take before the test kills it from outside. */
const MAX_STEPS = 6;
const SEED = Number(process.env.CRASH_SEED ?? 20260120);
const START = "2026-01-20T09:00:00Z";

let env: TradingEnv;
type User = Awaited<ReturnType<typeof userWithBroker>>;
const users: User[] = [];

beforeAll(async () => {
  env = await createTradingEnv({ startAt: START, speed: 0 });
  const app = await env.startApp({ WORKERS: "off" });
  // Trade as often as the settings allow: a scalper (its max hold makes the AI close trades itself)
  // and two styles that reopen as soon as the test closes their trade on an instrument.
  const styles = [
    { tradingStyle: "scalper", cooldownSec: 0, scalper: { maxHoldSec: 600, impulseThreshold: 0.2, impulseLookback: 3 } },
    { tradingStyle: "swing", cooldownSec: 0 },
    { tradingStyle: "day", cooldownSec: 0 },
  ];
  for (const [i, aiSettings] of styles.entries()) {
    const u = await userWithBroker(env, app, `crash${i}-${Date.now()}@teste.com`);
    const saved = await u.call("PUT", "/api/settings", { settings: { maxTrades: 20, maxDailyTrades: 100, maxDrawdownPct: 100, dailyLossLimitPct: 20, aiSettings } });
    if (saved.status !== 200) throw new Error(`settings: ${JSON.stringify(saved.body)}`);
    await tradeWithoutEdge(u.call); // the AI trades despite no proven edge (the edge gate's override, issue 21)
    users.push(u);
  }
  await app.stop();
}, 120_000);
afterAll(async () => env?.close());

interface BrokerTx {
  id: string;
  type: string;
  time: string;
  orderID?: string;
  /** On the MARKET_ORDER of a close (ours or the AI's), absent on an opening order. */
  tradeClose?: { tradeID: string };
  clientExtensions?: { id?: string };
  tradeOpened?: { tradeID: string; units: string; price?: string; clientExtensions?: { id?: string } };
  tradesClosed?: { tradeID: string; units: string; realizedPL: string }[];
  tradeReduced?: { tradeID: string; units: string; realizedPL: string };
}

interface BrokerTrade {
  id: string;
  instrument: string;
  price: string;
  openTime: string;
  initialUnits: string;
  currentUnits: string;
  state: string;
  realizedPL: string;
  closeTime?: string;
  clientExtensions?: { id?: string };
}

/** The simulator's OANDA API as the user's broker token sees it. */
function broker(u: User) {
  const base = `${env.sim.url}/practice/v3/accounts/${u.accountId}`;
  const get = async <T>(p: string): Promise<T> => {
    const res = await fetch(base + p, { headers: { authorization: `Bearer ${u.brokerToken}` } });
    if (!res.ok) throw new Error(`GET ${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    openTrades: async () => (await get<{ trades: BrokerTrade[] }>("/openTrades")).trades,
    summary: async () => (await get<{ account: { balance: string; lastTransactionID: string } }>("/summary")).account,
    transactions: async () => (await get<{ transactions: BrokerTx[] }>("/transactions/sinceid?id=0")).transactions,
    /** Every trade, open and closed (pages of 500, newest first). */
    async allTrades(): Promise<BrokerTrade[]> {
      const out: BrokerTrade[] = [];
      let before = "";
      for (;;) {
        const page = (await get<{ trades: BrokerTrade[] }>(`/trades?state=ALL&count=500${before}`)).trades;
        out.push(...page);
        if (page.length < 500) return out;
        before = `&beforeID=${Number(page[page.length - 1]!.id) - 1}`;
      }
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the app; when `build/` is being rewritten at that moment (a build in the same working tree
 * while the test runs), waits and tries again rather than failing the crash test for it.
 */
async function startApp(extra: Record<string, string>): Promise<AppServer> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await env.startApp(extra);
    } catch (err) {
      if (attempt >= 5 || !String(err).includes("Build não encontrado")) throw err;
      await sleep(3000);
    }
  }
}

describe("crash regressions", () => {
  it("a kill right after reconcile commits loses no 'Trade aberto'/'Trade fechado' notice (seed 20260120 lost one)", async () => {
    const clean = await startApp({ WORKERS: "off" });
    const u = await userWithBroker(env, clean, `regress-${Date.now()}@teste.com`);
    await clean.stop();
    // A trade made at the broker, then closed through our API: the close's reconcile records both.
    const base = `${env.sim.url}/practice/v3/accounts/${u.accountId}`;
    const headers = { authorization: `Bearer ${u.brokerToken}`, "content-type": "application/json" };
    const order = { type: "MARKET", instrument: "EUR_USD", units: "1000", timeInForce: "FOK", positionFill: "DEFAULT" };
    const filled = (await (await fetch(`${base}/orders`, { method: "POST", headers, body: JSON.stringify({ order }) })).json()) as {
      orderFillTransaction: { tradeOpened: { tradeID: string } };
    };
    const tradeId = filled.orderFillTransaction.tradeOpened.tradeID;
    const crashy = await startApp({ WORKERS: "off", CRASH_AT: "reconcile-after-commit" });
    await apiClient(crashy.url, u.token)("POST", `/api/trades/${tradeId}/close`, {}).catch(() => undefined);
    await crashy.exited;
    expect(crashy.output()).toContain("CRASH_AT: morrendo em reconcile-after-commit");
    const [trade] = await env.db.sql`select status from trades where user_id = ${u.userId} and broker_trade_id = ${tradeId}`;
    expect(trade?.status).toBe("closed");

    const app = await startApp({ WORKERS: "off" });
    expect((await apiClient(app.url, u.token)("POST", "/api/trades/ai/loop/run-once")).status).toBe(200);
    await app.stop();
    const notes = await env.db.sql<{ key: string }[]>`select title_msg->>'key' as key from notifications
      where user_id = ${u.userId} and metadata->>'tradeId' = ${tradeId} order by key`;
    expect(notes.map((n) => n.key.split(".")[0])).toEqual(["notices:tradeClosed", "notices:tradeOpened"]);
  }, 120_000);
});

describe("crash test", () => {
  it(`${KILLS} SIGKILLs at random points: no duplicate order, no lost or corrupted trade, counters equal the broker's replay`, async () => {
    const rand = seededRandom(SEED);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const started = Date.now();
    const kills: { how: string; point: string; steps: number }[] = [];
    const restartMs: number[] = [];
    let stepsRun = 0;
    let closesSent = 0;
    let targeted = 0;
    /** Named points no life has died at yet: the last lives aim at them (ADR 0023). */
    const unreached = new Set<string>(CRASH_POINTS);
    const aimed = new Set<string>();

    /** Users whose account may be disconnected (a reconnect cut short by a kill): connected again at the next start. */
    const disconnected = new Set<User>();
    let reconnects = 0;
    /** Disconnect and connect the same account again: the reconnect replays from the kept transaction id with a sweep. */
    async function reconnect(u: User, call: ReturnType<typeof apiClient>): Promise<void> {
      disconnected.add(u);
      reconnects++;
      await call("POST", "/api/oanda-auth/disconnect").catch(() => undefined);
      const again = await call("POST", "/api/oanda-auth/connect", { token: u.brokerToken, environment: "practice", accountId: u.accountId }).catch(() => undefined);
      if (again?.status === 200) disconnected.delete(u);
    }

    /** One step: the clock moves on, then every user's tick and maybe a manual close, at once. */
    async function step(app: AppServer): Promise<void> {
      await env.simCall("POST", "/sim/clock", { advanceSeconds: 300 });
      stepsRun++;
      await Promise.all(
        users.map(async (u) => {
          const call = apiClient(app.url, u.token);
          // A dead server refuses the connection or drops the reply: that is the point of the test.
          const work: Promise<unknown>[] = [call("POST", "/api/trades/ai/loop/run-once").catch(() => undefined)];
          if (rand() < 0.08) work.push(reconnect(u, call));
          else if (rand() < 0.6) {
            const open = await broker(u).openTrades();
            if (open.length) {
              const t = pick(open);
              const units = Math.abs(Number(t.currentUnits));
              const partial = rand() < 0.4 && units > 1;
              closesSent++;
              const body = partial ? { units: String(Math.max(1, Math.floor(units * rand()))) } : {};
              work.push(call("POST", `/api/trades/${t.id}/close`, body).catch(() => undefined));
            }
          }
          await Promise.all(work);
        }),
      );
    }

    while (kills.length < KILLS) {
      // One life of the server: how it will die.
      const r = rand();
      let how: "point" | "random" | "wall";
      let crashAt: string | undefined;
      // As many lives left as points no life has died at yet: aim at those (ADR 0023), the points in
      // turn otherwise.
      const mustAim = unreached.size > 0 && KILLS - kills.length <= unreached.size;
      if (r < 0.6 || mustAim) {
        how = "point";
        let point: string = CRASH_POINTS[targeted++ % CRASH_POINTS.length]!;
        if (mustAim) point = [...unreached].find((p) => !aimed.has(p)) ?? (unreached.has(point) ? point : [...unreached][0]!);
        aimed.add(point);
        crashAt = `${point}@${1 + Math.floor(rand() * 2)}`;
      } else if (r < 0.8) {
        how = "random";
        crashAt = `random:${Math.floor(rand() * 1e9)}:0.15`;
      } else how = "wall";

      const t0 = Date.now();
      const app = await startApp({ WORKERS: "off", ...(crashAt ? { CRASH_AT: crashAt } : {}) });
      restartMs.push(Date.now() - t0);
      const dead = () => app.proc.exitCode !== null || app.proc.signalCode !== null;
      // A manual start acknowledges the losing streak (ADR 0010), so the bot keeps opening trades
      // (the users at once: each one's calls stay in order).
      await Promise.all(
        users.map(async (u) => {
          const call = apiClient(app.url, u.token);
          if (disconnected.has(u)) await reconnect(u, call);
          await call("POST", "/api/trades/ai/loop/start", { intervalSec: 3600 }).catch(() => undefined);
          await call("POST", "/api/trades/ai/loop/stop").catch(() => undefined);
        }),
      );

      let steps = 0;
      const budget = how === "wall" ? Math.floor(rand() * 3) : MAX_STEPS;
      while (!dead() && steps < budget) {
        await step(app);
        steps++;
      }
      if (!dead()) {
        // Killed from outside at a random moment of a step (ticks and closes in flight).
        const work = step(app);
        await sleep(Math.floor(rand() * 300));
        await app.kill();
        await work;
        steps++;
      }
      await app.exited;
      const point = /CRASH_AT: morrendo em (\S+)/.exec(app.output())?.[1];
      kills.push({ how: point ? how : "wall", point: point ?? "wall-clock", steps });
      if (point) unreached.delete(point);
      if (process.env.CRASH_VERBOSE) console.log(`kill ${kills.length}: ${crashAt ?? "-"} → ${point ?? "wall-clock"} after ${steps} steps, ${Date.now() - started} ms`);
    }

    // A clean restart: its ticks reconcile everything (twice at the same market time: no new decision).
    const t0 = Date.now();
    const app = await startApp({ WORKERS: "off" });
    restartMs.push(Date.now() - t0);
    for (const u of users) {
      const call = apiClient(app.url, u.token);
      if (disconnected.has(u)) await reconnect(u, call);
      expect(disconnected.has(u)).toBe(false);
      // Two ticks that ran (not skipped: e.g. the dead process's lock not yet released by PostgreSQL).
      let ran = 0;
      for (let tries = 0; ran < 2 && tries < 20; tries++) {
        const r = await call<{ success: boolean; status?: string }>("POST", "/api/trades/ai/loop/run-once");
        if (r.status === 200 && r.body.success && r.body.status === "done") ran++;
        else await sleep(250);
      }
      expect(ran, "the final ticks ran").toBe(2);
    }
    await app.stop();

    const byPoint = new Map<string, number>();
    for (const k of kills) byPoint.set(k.point, (byPoint.get(k.point) ?? 0) + 1);
    const totals = { orders: 0, trades: 0, closed: 0, partials: 0 };
    for (const u of users) {
      const b = broker(u);
      const [txs, trades, summary] = await Promise.all([b.transactions(), b.allTrades(), b.summary()]);
      const intents = await env.db.sql<{ client_order_id: string; decision_id: string; status: string; broker_trade_id: string | null }[]>`
        select client_order_id, decision_id, status, broker_trade_id from order_intents where user_id = ${u.userId}`;
      const intentById = new Map(intents.map((i) => [i.client_order_id, i]));

      // 0 duplicate orders: one order, one fill, one trade per client id, one client id per decision.
      const orders = txs.filter((t) => t.type === "MARKET_ORDER" && !t.tradeClose);
      const orderIds = orders.map((t) => t.clientExtensions?.id).filter((id): id is string => !!id);
      expect(orderIds.length, "every bot order carries its client id").toBe(orders.length);
      expect(new Set(orderIds).size, "duplicate client order id at the broker").toBe(orderIds.length);
      for (const id of orderIds) {
        expect(intentById.has(id), `order ${id} sent without an intent`).toBe(true);
        expect(intentById.get(id)!.status, `order ${id}: its outcome is at the broker, the intent must be settled`).not.toBe("pending");
      }
      const decisionsOrdered = orderIds.map((id) => intentById.get(id)!.decision_id);
      expect(new Set(decisionsOrdered).size, "two orders for one decision").toBe(decisionsOrdered.length);
      const orderClient = new Map(orders.map((o) => [o.id, o.clientExtensions!.id!]));
      const fills = txs.filter((t) => t.type === "ORDER_FILL" && t.tradeOpened);
      const filledClients = fills.map((f) => orderClient.get(f.orderID ?? "")).filter((id): id is string => !!id);
      expect(new Set(filledClients).size, "one client id filled twice").toBe(filledClients.length);
      const tradeClients = trades.map((t) => t.clientExtensions?.id).filter((id): id is string => !!id);
      expect(new Set(tradeClients).size, "two broker trades share a client id").toBe(tradeClients.length);
      totals.orders += orders.length;

      // A clean replay of the broker's transactions: each trade's open, reductions and close.
      const replay = new Map<string, { openTime: Date; units: Decimal; realized: Decimal; closeTime: Date | null; unitsAtClose?: Decimal }>();
      for (const tx of txs) {
        if (tx.type !== "ORDER_FILL") continue;
        if (tx.tradeOpened)
          replay.set(tx.tradeOpened.tradeID, { openTime: new Date(tx.time), units: new Decimal(tx.tradeOpened.units).abs(), realized: new Decimal(0), closeTime: null });
        if (tx.tradeReduced) {
          const t = replay.get(tx.tradeReduced.tradeID)!;
          t.units = t.units.sub(new Decimal(tx.tradeReduced.units).abs());
          t.realized = t.realized.add(tx.tradeReduced.realizedPL);
          totals.partials++;
        }
        for (const c of tx.tradesClosed ?? []) {
          const t = replay.get(c.tradeID)!;
          t.unitsAtClose = new Decimal(c.units).abs();
          t.realized = t.realized.add(c.realizedPL);
          t.closeTime = new Date(tx.time);
        }
      }

      // 0 lost or corrupted trades: our books hold exactly the broker's trades, with its figures.
      const ours = await env.db.sql<
        {
          broker_trade_id: string;
          client_order_id: string | null;
          decision_id: string | null;
          instrument: string;
          side: string;
          units: string;
          open_price: string;
          open_time: Date;
          status: string;
          close_time: Date | null;
          realized_pl: string | null;
          result: string | null;
        }[]
      >`select broker_trade_id, client_order_id, decision_id, instrument, side, units::text, open_price::text, open_time, status,
          close_time, realized_pl::text, result from trades where user_id = ${u.userId} and account_id = ${u.accountId}`;
      const ourById = new Map(ours.map((t) => [t.broker_trade_id, t]));
      expect(ours.map((t) => t.broker_trade_id).sort(), "our trades are the broker's trades").toEqual(trades.map((t) => t.id).sort());
      expect(replay.size).toBe(trades.length);
      for (const t of trades) {
        const o = ourById.get(t.id)!;
        const r = replay.get(t.id)!;
        const closed = t.state === "CLOSED";
        const where = `trade ${t.id} (${t.state})`;
        expect({ where, instrument: o.instrument, side: o.side, price: new Decimal(o.open_price).toString(), openTime: o.open_time.toISOString(), status: o.status }).toEqual({
          where,
          instrument: t.instrument,
          side: Number(t.initialUnits) > 0 ? "buy" : "sell",
          price: new Decimal(t.price).toString(),
          openTime: new Date(t.openTime).toISOString(),
          status: closed ? "closed" : "open",
        });
        expect(new Decimal(t.realizedPL).eq(r.realized), `${where}: the broker's own trade record disagrees with its transactions`).toBe(true);
        expect(new Decimal(o.realized_pl ?? 0).toString(), `${where}: realized P&L`).toBe(new Decimal(t.realizedPL).toString());
        expect(new Decimal(o.units).toString(), `${where}: units`).toBe((closed ? r.unitsAtClose! : new Decimal(t.currentUnits).abs()).toString());
        if (closed) {
          expect(o.close_time?.toISOString(), `${where}: close time`).toBe(new Date(t.closeTime!).toISOString());
          expect(o.result, `${where}: result`).toBe(r.realized.gt(0) ? "WIN" : r.realized.lt(0) ? "LOSS" : "BE");
          totals.closed++;
        }
        if (t.clientExtensions?.id) {
          const intent = intentById.get(t.clientExtensions.id)!;
          expect({ where, client: o.client_order_id, decision: o.decision_id, intent: intent.status, intentTrade: intent.broker_trade_id }).toEqual({
            where,
            client: t.clientExtensions.id,
            decision: intent.decision_id,
            intent: "filled",
            intentTrade: t.id,
          });
        }
      }
      totals.trades += trades.length;

      // Each open and each close reaches the user exactly once ('Trade aberto', 'Trade fechado …').
      const notes = await env.db.sql<{ kind: string; trade_id: string; n: number }[]>`
        select split_part(title_msg->>'key', '.', 1) as kind, metadata->>'tradeId' as trade_id, count(*)::int as n from notifications
        where user_id = ${u.userId} and title_msg->>'key' like 'notices:trade%' group by 1, 2`;
      const noted = (kind: string) => Object.fromEntries(notes.filter((x) => x.kind === kind).map((x) => [x.trade_id, x.n]));
      const once = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, 1]));
      expect(noted("notices:tradeOpened"), "one 'Trade aberto' per trade").toEqual(once(trades.map((t) => t.id)));
      expect(noted("notices:tradeClosed"), "one 'Trade fechado' per closed trade").toEqual(once(trades.filter((t) => t.state === "CLOSED").map((t) => t.id)));

      // Risk counters: our books against the broker's replay, at every hour of the run.
      const fromOurs: CounterTrade[] = ours.map((t) => ({
        openTime: t.open_time,
        closeTime: t.status === "closed" ? t.close_time : null,
        realizedPL: t.status === "closed" ? t.realized_pl : null,
      }));
      const fromReplay: CounterTrade[] = [...replay.values()].map((t) => ({
        openTime: t.openTime,
        closeTime: t.closeTime,
        realizedPL: t.closeTime ? t.realized.toString() : null,
      }));
      const first = Date.parse(START);
      const last = Date.parse(txs[txs.length - 1]!.time);
      for (let now = first; now <= last + 3_600_000; now += 3_600_000) {
        for (const timezone of ["UTC", "America/Sao_Paulo"]) {
          const input = { now: new Date(now), timezone, balance: summary.balance, runStartedAt: null };
          const a = deriveRiskCounters({ ...input, trades: fromOurs });
          const e = deriveRiskCounters({ ...input, trades: fromReplay });
          const norm = (c: typeof a) => ({ ...c, realizedPLToday: new Decimal(c.realizedPLToday).toString(), dayStartBalance: new Decimal(c.dayStartBalance).toString() });
          expect(norm(a), `counters at ${new Date(now).toISOString()} ${timezone}`).toEqual(norm(e));
        }
      }
    }

    const seconds = Math.round((Date.now() - started) / 1000);
    const avgRestart = Math.round(restartMs.reduce((s, x) => s + x, 0) / restartMs.length);
    console.log(
      `crash test (seed ${SEED}): ${kills.length} kills in ${seconds} s, ${stepsRun} steps, ${closesSent} manual closes and ${reconnects} reconnects sent; ` +
        `broker: ${totals.orders} orders, ${totals.trades} trades (${totals.closed} closed, ${totals.partials} partial closes); ` +
        `restart ${avgRestart} ms on average; kills by point: ${[...byPoint].map(([p, n]) => `${p} ${n}`).join(", ")}`,
    );
    expect(kills).toHaveLength(KILLS);
    // The named points were reached, not only wall-clock kills.
    expect(kills.filter((k) => k.point !== "wall-clock").length).toBeGreaterThanOrEqual(KILLS / 2);
    // Every named point was died at or, failing that, aimed at (with KILLS ≥ 12).
    if (KILLS >= CRASH_POINTS.length) expect(CRASH_POINTS.filter((p) => unreached.has(p) && !aimed.has(p)), "points neither aimed at nor reached").toEqual([]);
    expect(totals.trades).toBeGreaterThan(0);
  }, Math.max(600_000, KILLS * 20_000));
});

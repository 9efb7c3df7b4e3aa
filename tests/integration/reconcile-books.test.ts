/**
 * Issue 8 items 4 and 5: our books follow the broker's, whatever the timing.
 * - Concurrent partial closes of one trade (PUT /api/trades/:id/close with units) each reconcile;
 *   reconcile is serialized per user and replays from the stored last transaction id, so the
 *   trade's units and realized P&L equal the broker's (before: 800 units at the broker, 600 here).
 * - A trade closed at the broker while the account was disconnected is closed in our history, with
 *   the broker's P&L, once the same account is connected again (before: reconnecting reset the
 *   stored transaction id to "now" and the trade stayed open for good).
 * Real server, PostgreSQL and simulator; the broker is read over its OANDA API with the broker token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;

beforeAll(async () => {
  env = await createTradingEnv({ speed: 0 });
  app = await env.startApp({ WORKERS: "off" });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

interface BrokerTrade {
  id: string;
  state: string;
  currentUnits: string;
  realizedPL: string;
  averageClosePrice?: string;
}

/** The simulator's OANDA API as the broker token sees it. */
function broker(u: { brokerToken: string; accountId: string }) {
  const base = `${env.sim.url}/practice/v3/accounts/${u.accountId}`;
  const req = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await fetch(base + p, {
      method,
      headers: { authorization: `Bearer ${u.brokerToken}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    /** A market buy of `units` with no stop (a manual trade outside the bot). */
    async buy(units: number): Promise<string> {
      const r = await req<{ orderFillTransaction?: { tradeOpened?: { tradeID: string } } }>("POST", "/orders", {
        order: { type: "MARKET", instrument: "EUR_USD", units: String(units), timeInForce: "FOK", positionFill: "DEFAULT" },
      });
      const id = r.orderFillTransaction?.tradeOpened?.tradeID;
      if (!id) throw new Error(`ordem não executada: ${JSON.stringify(r)}`);
      return id;
    },
    trade: async (id: string) => (await req<{ trade: BrokerTrade }>("GET", `/trades/${id}`)).trade,
    close: (id: string, units = "ALL") => req("PUT", `/trades/${id}/close`, { units }),
  };
}

async function ourTrade(userId: string, brokerTradeId: string) {
  const [row] = await env.db.sql<{ units: string; realized_pl: string | null; status: string; result: string | null; close_price: string | null }[]>`
    select units::text, realized_pl::text, status, result, close_price::text from trades where user_id = ${userId} and broker_trade_id = ${brokerTradeId}`;
  return row;
}

describe("partial closes", () => {
  it("concurrent partial closes leave our units and realized P&L equal to the broker's", async () => {
    const u = await userWithBroker(env, app);
    const b = broker(u);
    const tradeId = await b.buy(1000);
    // A first partial close records the trade (a manual one) and its first reduction.
    expect((await u.call("POST", `/api/trades/${tradeId}/close`, { units: "100" })).status).toBe(200);
    expect(await ourTrade(u.userId, tradeId)).toMatchObject({ units: "900", status: "open" });

    // Then several at once: every request's reconcile sees the others' reductions.
    const replies = await Promise.all(Array.from({ length: 4 }, () => u.call("POST", `/api/trades/${tradeId}/close`, { units: "100" })));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);

    const atBroker = await b.trade(tradeId);
    expect(atBroker).toMatchObject({ state: "OPEN", currentUnits: "500" });
    const ours = await ourTrade(u.userId, tradeId);
    expect(ours!.status).toBe("open");
    expect(Number(ours!.units)).toBe(Number(atBroker.currentUnits));
    expect(Number(ours!.realized_pl)).toBe(Number(atBroker.realizedPL));

    // Closing the rest: the closed trade carries the broker's total realized P&L.
    expect((await u.call("POST", `/api/trades/${tradeId}/close`, {})).status).toBe(200);
    const closed = await b.trade(tradeId);
    expect(closed.state).toBe("CLOSED");
    const final = await ourTrade(u.userId, tradeId);
    expect(final!.status).toBe("closed");
    expect(Number(final!.realized_pl)).toBe(Number(closed.realizedPL));
  }, 120_000);
});

describe("reconnect", () => {
  it("a trade closed at the broker while disconnected is closed in our history with the broker's P&L after reconnecting", async () => {
    const u = await userWithBroker(env, app);
    const b = broker(u);
    const tradeId = await b.buy(2000);
    // Our books know the trade (a partial close through our API reconciles it).
    expect((await u.call("POST", `/api/trades/${tradeId}/close`, { units: "500" })).status).toBe(200);
    expect(await ourTrade(u.userId, tradeId)).toMatchObject({ units: "1500", status: "open" });

    expect((await u.call("POST", "/api/oanda-auth/disconnect")).status).toBe(200);
    await b.close(tradeId);
    const atBroker = await b.trade(tradeId);
    expect(atBroker.state).toBe("CLOSED");
    // Something else happens at the broker meanwhile: the account's transaction id moves on.
    const other = await b.buy(100);
    await b.close(other);

    const again = await u.call("POST", "/api/oanda-auth/connect", { token: u.brokerToken, environment: "practice", accountId: u.accountId });
    expect(again.status).toBe(200);
    const ours = await ourTrade(u.userId, tradeId);
    expect(ours).toMatchObject({ status: "closed", result: Number(atBroker.realizedPL) > 0 ? "WIN" : Number(atBroker.realizedPL) < 0 ? "LOSS" : "BE" });
    expect(Number(ours!.realized_pl)).toBe(Number(atBroker.realizedPL));
    const history = await u.call<{ trades: { id: string; pnl: string; status: string }[] }>("GET", "/api/trades/account/history?days=3650");
    const row = history.body.trades.find((t) => t.id === tradeId);
    expect(row).toBeDefined();
    expect(Number(row!.pnl)).toBe(Number(atBroker.realizedPL));
    // Replayed from the stored id: the trade opened and closed while disconnected is there too.
    expect(history.body.trades.find((t) => t.id === other)).toBeDefined();
    // Nothing left open here that the broker has closed.
    const open = await env.db.sql`select broker_trade_id from trades where user_id = ${u.userId} and status = 'open'`;
    expect(open).toHaveLength(0);
  }, 120_000);
});

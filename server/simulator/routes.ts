/**
 * The v3 REST endpoints of one environment prefix (`/practice/v3` or `/live/v3`), PROTOCOL.md §7.
 * Every handler authenticates (401 unknown/other-environment token, 403 other user's account),
 * evaluates pending stops (`sim.sync()`), then answers with OANDA's JSON shapes.
 */
import express, { type Request, type Response, type Router } from "express";
import type { Environment } from "../../core/broker/port";
import { SimHttpError, accountSummaryJSON, accountTotals, positionsJSON, openTrades } from "../../core/simulator/accounts";
import { candlesBody } from "../../core/simulator/candles";
import { methodNotAllowed, sendJson } from "./http";
import { instrumentJSON } from "../../core/simulator/instruments-json";
import { closeTrade, createMarketOrder } from "../../core/simulator/orders";
import type { Simulator } from "../../core/simulator/simulator";
import type { AccountState, UserState } from "../../core/simulator/state";
import { getTx, idRange, sinceId } from "../../core/simulator/transactions";
import { findTrade, listTrades, orderJSON, tradeJSON, tradeSummaryJSON } from "../../core/simulator/trades";
import { rfc3339 } from "../../core/simulator/time";
import { priceStreamHandler, type StreamRegistry } from "./stream";

type Handler = (req: Request, res: Response) => void;

function q(req: Request, name: string): string | undefined {
  const v = req.query[name];
  return typeof v === "string" ? v : undefined;
}

function instrumentsParam(sim: Simulator, req: Request, required: boolean): string[] | undefined {
  const raw = q(req, "instruments");
  if (raw === undefined) {
    if (required) throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'instruments'" });
    return undefined;
  }
  const list = raw.split(",").map((s) => s.trim()).filter(Boolean);
  if (!list.length || list.some((i) => !sim.market.has(i))) throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'instruments'" });
  return list;
}

/** Builds the router for one environment. `streams` tracks open price streams so the server can end them. */
export function v3Router(sim: Simulator, env: Environment, streams: StreamRegistry): Router {
  const r = express.Router();
  const auth = (req: Request): UserState => sim.authenticate(env, req.headers.authorization);
  const withAccount = (fn: (req: Request, res: Response, acct: AccountState, now: number) => void): Handler => (req, res) => {
    const acct = sim.accountOf(auth(req), String(req.params.accountID));
    fn(req, res, acct, sim.sync());
  };
  const route = (path: string, methods: Partial<Record<"get" | "post" | "put", Handler>>) => {
    const rt = r.route(path);
    for (const [m, h] of Object.entries(methods)) rt[m as "get"](h);
    rt.all(methodNotAllowed);
  };
  const lastTx = (a: AccountState) => String(a.lastTransactionID);

  route("/accounts", {
    get: (req, res) => {
      const user = auth(req);
      sendJson(req, res, 200, { accounts: user.accountIDs.map((id) => ({ id, tags: [] })) });
    },
  });
  route("/accounts/:accountID", {
    get: withAccount((req, res, a, now) => {
      const account = {
        ...accountSummaryJSON(sim.pricing, a, now),
        trades: openTrades(a).map((t) => tradeSummaryJSON(sim.pricing, a, t, now)),
        positions: positionsJSON(sim.pricing, a, now, false),
        orders: a.orders.filter((o) => o.state === "PENDING").map(orderJSON),
      };
      sendJson(req, res, 200, { account, lastTransactionID: lastTx(a) });
    }),
  });
  route("/accounts/:accountID/summary", {
    get: withAccount((req, res, a, now) => sendJson(req, res, 200, { account: accountSummaryJSON(sim.pricing, a, now), lastTransactionID: lastTx(a) })),
  });
  route("/accounts/:accountID/instruments", {
    get: withAccount((req, res, a) => {
      const offered = a.offered ?? sim.market.instruments;
      const list = (instrumentsParam(sim, req, false) ?? sim.market.instruments).filter((n) => offered.includes(n));
      sendJson(req, res, 200, { instruments: list.map((n) => instrumentJSON(n, a.minimumTradeSize?.[n])), lastTransactionID: lastTx(a) });
    }),
  });
  route("/accounts/:accountID/pricing", {
    get: withAccount((req, res, a, now) => {
      const list = instrumentsParam(sim, req, true)!;
      const body: Record<string, unknown> = {
        time: rfc3339(now),
        prices: list.map((i) => sim.pricing.clientPrice(sim.pricing.quote(i, now), a.currency, now,
          q(req, "includeUnitsAvailable") === "false" ? undefined : accountTotals(sim.pricing, a, now).marginAvailable)),
      };
      if (q(req, "includeHomeConversions") === "true") {
        body.homeConversions = sim.pricing.currencies().map((c) => {
          const rate = sim.pricing.rate(c, a.currency, now).toSignificantDigits(6).toFixed();
          return { currency: c, accountGain: rate, accountLoss: rate, positionValue: rate };
        });
      }
      sendJson(req, res, 200, body);
    }),
  });
  route("/accounts/:accountID/pricing/stream", {
    get: (req, res) => {
      const acct = sim.accountOf(auth(req), String(req.params.accountID));
      priceStreamHandler(sim, streams, acct, instrumentsParam(sim, req, true)!, req, res);
    },
  });
  const candles: Handler = (req, res) => {
    const now = sim.sync();
    const query: Record<string, string | undefined> = {};
    for (const k of ["price", "granularity", "count", "from", "to", "includeFirst"]) query[k] = q(req, k);
    sendJson(req, res, 200, candlesBody(sim.pricing, String(req.params.instrument), query, now));
  };
  route("/instruments/:instrument/candles", { get: (req, res) => (auth(req), candles(req, res)) });
  route("/accounts/:accountID/instruments/:instrument/candles", { get: withAccount((req, res) => candles(req, res)) });

  route("/accounts/:accountID/orders", {
    get: withAccount((req, res, a) => sendJson(req, res, 200, { orders: a.orders.filter((o) => o.state === "PENDING").map(orderJSON).reverse(), lastTransactionID: lastTx(a) })),
    post: withAccount((req, res, a, now) => {
      const reply = createMarketOrder(sim.pricing, a, req.body, now, String(res.locals.requestID));
      sim.save();
      if (reply.status === 201) res.setHeader("Location", `${req.baseUrl}/accounts/${a.id}/orders/${String((reply.body.orderCreateTransaction as { id: string }).id)}`);
      sendJson(req, res, reply.status, reply.body);
    }),
  });
  route("/accounts/:accountID/pendingOrders", {
    get: withAccount((req, res, a) => sendJson(req, res, 200, { orders: a.orders.filter((o) => o.state === "PENDING").map(orderJSON).reverse(), lastTransactionID: lastTx(a) })),
  });
  route("/accounts/:accountID/openTrades", {
    get: withAccount((req, res, a, now) => sendJson(req, res, 200, {
      trades: openTrades(a).reverse().map((t) => tradeJSON(sim.pricing, a, t, now)), lastTransactionID: lastTx(a),
    })),
  });
  route("/accounts/:accountID/trades", {
    get: withAccount((req, res, a, now) => {
      const state = q(req, "state") ?? "OPEN";
      if (!["OPEN", "CLOSED", "CLOSE_WHEN_TRADEABLE", "ALL"].includes(state)) throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'state'" });
      const countRaw = q(req, "count") ?? "50";
      if (!/^\d+$/.test(countRaw) || Number(countRaw) < 1) throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'count'" });
      if (Number(countRaw) > 500) throw new SimHttpError(400, { errorMessage: "Maximum value for 'count' exceeded" });
      const before = q(req, "beforeID");
      if (before !== undefined && !/^\d+$/.test(before)) throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'beforeID'" });
      const instrument = q(req, "instrument");
      const { trades, more } = listTrades(a, {
        state, instrument, count: Number(countRaw), beforeID: before === undefined ? undefined : Number(before), ids: q(req, "ids")?.split(","),
      });
      if (more && trades.length) {
        const params = new URLSearchParams({ beforeID: String(Number(trades[trades.length - 1]!.id) - 1), state, count: countRaw, ...(instrument ? { instrument } : {}) });
        res.setHeader("Link", `<${req.protocol}://${req.get("host")}${req.baseUrl}${req.path}?${params}>; rel="next"`);
      }
      sendJson(req, res, 200, { trades: trades.map((t) => tradeJSON(sim.pricing, a, t, now)), lastTransactionID: lastTx(a) });
    }),
  });
  const noSuchTrade = (a: AccountState) => new SimHttpError(404, { lastTransactionID: lastTx(a), errorMessage: "The trade ID specified does not exist", errorCode: "NO_SUCH_TRADE" });
  route("/accounts/:accountID/trades/:tradeSpecifier", {
    get: withAccount((req, res, a, now) => {
      const t = findTrade(a, String(req.params.tradeSpecifier));
      if (!t) throw noSuchTrade(a);
      sendJson(req, res, 200, { trade: tradeJSON(sim.pricing, a, t, now), lastTransactionID: lastTx(a) });
    }),
  });
  route("/accounts/:accountID/trades/:tradeSpecifier/close", {
    put: withAccount((req, res, a, now) => {
      const reply = closeTrade(sim.pricing, a, String(req.params.tradeSpecifier), req.body, now, String(res.locals.requestID));
      sim.save();
      sendJson(req, res, reply.status, reply.body);
    }),
  });
  route("/accounts/:accountID/positions", {
    get: withAccount((req, res, a, now) => sendJson(req, res, 200, { positions: positionsJSON(sim.pricing, a, now, false), lastTransactionID: lastTx(a) })),
  });
  route("/accounts/:accountID/openPositions", {
    get: withAccount((req, res, a, now) => sendJson(req, res, 200, { positions: positionsJSON(sim.pricing, a, now, true), lastTransactionID: lastTx(a) })),
  });
  route("/accounts/:accountID/transactions/sinceid", {
    get: withAccount((req, res, a) => {
      const id = q(req, "id");
      if (id === undefined || !/^\d+$/.test(id)) throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'id'" });
      if (Number(id) > a.lastTransactionID) throw new SimHttpError(416, { errorMessage: "Invalid value specified for 'id'" });
      sendJson(req, res, 200, { transactions: sinceId(a, Number(id)), lastTransactionID: lastTx(a) });
    }),
  });
  route("/accounts/:accountID/transactions/idrange", {
    get: withAccount((req, res, a) => {
      const from = q(req, "from"), to = q(req, "to");
      if (!from || !/^\d+$/.test(from)) throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'from'" });
      if (!to || !/^\d+$/.test(to)) throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'to'" });
      if (Number(from) > Number(to)) throw new SimHttpError(416, { errorMessage: "Invalid value specified for 'from'" });
      sendJson(req, res, 200, { transactions: idRange(a, Number(from), Number(to), q(req, "type")?.split(",")), lastTransactionID: lastTx(a) });
    }),
  });
  route("/accounts/:accountID/transactions/:transactionID", {
    get: withAccount((req, res, a) => {
      const tx = getTx(a, String(req.params.transactionID));
      if (!tx) throw new SimHttpError(404, { lastTransactionID: lastTx(a), errorMessage: "The transaction ID specified does not exist", errorCode: "NO_SUCH_TRANSACTION" });
      sendJson(req, res, 200, { transaction: tx, lastTransactionID: lastTx(a) });
    }),
  });
  return r;
}

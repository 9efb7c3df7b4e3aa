/**
 * zod schemas of the OANDA v20 replies the client reads, and their mapping to the broker-port
 * types (core/broker/port.ts). Wire rules (oanda/PROTOCOL.md §3, PITFALLS.md §6, §9):
 * - decimals (prices, units, money) are JSON strings and stay strings;
 * - IDs are strings; some captures carry integer IDs, so IDs accept numbers and become strings;
 * - `liquidity` may be a number or a string;
 * - DateTimes may be RFC3339 or UNIX strings (`"1509281144.757577547"`); both are accepted and
 *   returned as RFC3339 UTC with the digits received (UNIX → `...T..:..:..757577547Z`);
 * - objects are loose: unknown fields are ignored (kept only on `Transaction`), absent optional
 *   fields stay absent (an explicit `null` is read as absent, never returned).
 */
import { z } from "zod";
import type {
  AccountRef,
  AccountSummary,
  BrokerInstrument,
  ClientExtensions,
  ClientPrice,
  MarketOrderResult,
  Trade,
  TradeCloseResult,
  Transaction,
} from "../broker/port";
import type { Candle } from "../candles";

const UNIX_TIME = /^(\d+)(?:\.(\d+))?$/;
const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * An OANDA DateTime (RFC3339 or UNIX seconds string) as RFC3339 UTC; `undefined` if unreadable.
 * Source: PROTOCOL.md §2 (both formats), PITFALLS.md §9 (UNIX answered regardless of the header).
 */
export function normaliseTime(s: string): string | undefined {
  const u = UNIX_TIME.exec(s);
  if (u) {
    const d = new Date(Number(u[1]) * 1000);
    if (Number.isNaN(d.getTime())) return undefined;
    const frac = (u[2] ?? "").padEnd(9, "0").slice(0, 9);
    return `${d.toISOString().slice(0, 19)}.${frac}Z`;
  }
  const r = RFC3339.exec(s);
  if (!r) return undefined;
  if (r[3]!.toUpperCase() === "Z") return `${r[1]}.${(r[2] ?? "").padEnd(9, "0")}Z`;
  const ms = Date.parse(`${r[1]}.${(r[2] ?? "").padEnd(3, "0").slice(0, 3)}${r[3]}`);
  if (Number.isNaN(ms)) return undefined;
  return `${new Date(ms).toISOString().slice(0, 19)}.${(r[2] ?? "").padEnd(9, "0").slice(0, 9)}Z`;
}

/** Epoch milliseconds of an OANDA DateTime (RFC3339 or UNIX string); NaN if unreadable. */
export function timeToEpochMs(s: string): number {
  const u = UNIX_TIME.exec(s);
  if (u) return Number(u[1]) * 1000 + Number((u[2] ?? "").padEnd(3, "0").slice(0, 3));
  const r = RFC3339.exec(s);
  if (!r) return Number.NaN;
  return Date.parse(`${r[1]}.${(r[2] ?? "").padEnd(3, "0").slice(0, 3)}${r[3]!.toUpperCase()}`);
}

// ---- building blocks -------------------------------------------------------------------------

/** Optional field: absent or null → undefined (never null in the output). */
function opt<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((v) => (v === null ? undefined : v) as z.output<T> | undefined);
}

/** Removes keys whose value is undefined, so absent fields stay absent. */
function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

/** OANDA ID (transaction/order/trade): string; integer IDs of some captures become strings (§3). */
export const idSchema = z.union([z.string(), z.number().int()]).transform(String);
/** Decimal string as on the wire (`"-100"`, `"1.05563"`): validated, kept as a string (§3). */
export const decimalSchema = z.string().regex(/^-?\d+(\.\d+)?$/, "decimal string");
/** DateTime in RFC3339 or UNIX form → RFC3339 UTC string (§2; PITFALLS.md §9). */
export const dateTimeSchema = z.string().transform((s, ctx) => {
  const t = normaliseTime(s);
  if (t === undefined) {
    ctx.addIssue({ code: "custom", message: `invalid DateTime ${s}` });
    return z.NEVER;
  }
  return t;
});
const liquiditySchema = z.union([z.number(), z.string()]);

/** `ClientExtensions {id, tag, comment}` (§7.8). */
export const clientExtensionsSchema = z
  .looseObject({ id: opt(z.string()), tag: opt(z.string()), comment: opt(z.string()) })
  .transform((c): ClientExtensions => compact({ id: c.id, tag: c.tag, comment: c.comment }));

/** Generic error envelope `{errorMessage, errorCode?, *RejectTransaction?, lastTransactionID?}` (§4). */
export const errorBodySchema = z.looseObject({
  errorMessage: opt(z.string()),
  errorCode: opt(z.string()),
  lastTransactionID: opt(idSchema),
  relatedTransactionIDs: opt(z.array(idSchema)),
});

// ---- transactions (§7.8, §8) -----------------------------------------------------------------

const tradeOpenSchema = z.looseObject({
  tradeID: idSchema,
  units: decimalSchema,
  price: opt(decimalSchema),
  clientExtensions: opt(clientExtensionsSchema),
});
const tradeReduceSchema = z.looseObject({
  tradeID: idSchema,
  units: decimalSchema,
  price: opt(decimalSchema),
  realizedPL: decimalSchema,
  financing: opt(decimalSchema),
});

/** Any Transaction: known fields checked and normalised (IDs → strings, times → RFC3339), the rest kept. */
export const transactionSchema = z
  .looseObject({
    id: idSchema,
    type: z.string(),
    time: dateTimeSchema,
    accountID: opt(z.string()),
    batchID: opt(idSchema),
    reason: opt(z.string()),
    instrument: opt(z.string()),
    units: opt(decimalSchema),
    price: opt(decimalSchema),
    pl: opt(decimalSchema),
    financing: opt(decimalSchema),
    accountBalance: opt(decimalSchema),
    orderID: opt(idSchema),
    tradeID: opt(idSchema),
    clientExtensions: opt(clientExtensionsSchema),
    tradeClientExtensions: opt(clientExtensionsSchema),
    tradeOpened: opt(tradeOpenSchema),
    tradesClosed: opt(z.array(tradeReduceSchema)),
    tradeReduced: opt(tradeReduceSchema),
    rejectReason: opt(z.string()),
  })
  .transform((t): Transaction => {
    const out: Transaction = { ...t } as Transaction;
    for (const k of Object.keys(out)) if (out[k] === null || out[k] === undefined) delete out[k];
    if (t.tradeOpened) out.tradeOpened = compact({ ...t.tradeOpened });
    if (t.tradesClosed) out.tradesClosed = t.tradesClosed.map((c) => compact({ ...c }));
    if (t.tradeReduced) out.tradeReduced = compact({ ...t.tradeReduced });
    return out;
  });

// ---- accounts (§7.1, §7.2, §7.3) -------------------------------------------------------------

/** `GET /v3/accounts` → `AccountRef[]`; missing `tags` → [] (§7.1). */
export const accountsResponseSchema = z
  .looseObject({
    accounts: z.array(z.looseObject({ id: z.string(), tags: opt(z.array(z.string())) })),
  })
  .transform((r): AccountRef[] => r.accounts.map((a) => ({ id: a.id, tags: a.tags ?? [] })));

/** `GET A/summary` (or `GET A`) → `AccountSummary`; lastTransactionID from the envelope or the account (§7.2). */
export const accountSummaryResponseSchema = z
  .looseObject({
    account: z.looseObject({
      id: z.string(),
      alias: opt(z.string()),
      currency: z.string(),
      balance: decimalSchema,
      NAV: decimalSchema,
      unrealizedPL: decimalSchema,
      pl: decimalSchema,
      marginUsed: decimalSchema,
      marginAvailable: decimalSchema,
      openTradeCount: z.number().int(),
      openPositionCount: z.number().int(),
      pendingOrderCount: z.number().int(),
      lastTransactionID: opt(idSchema),
      createdTime: opt(dateTimeSchema),
      hedgingEnabled: opt(z.boolean()),
    }),
    lastTransactionID: opt(idSchema),
  })
  .transform((r, ctx): AccountSummary => {
    const a = r.account;
    const lastTransactionID = r.lastTransactionID ?? a.lastTransactionID;
    if (lastTransactionID === undefined) {
      ctx.addIssue({ code: "custom", message: "lastTransactionID missing" });
      return z.NEVER;
    }
    return compact({
      id: a.id,
      alias: a.alias,
      currency: a.currency,
      balance: a.balance,
      NAV: a.NAV,
      unrealizedPL: a.unrealizedPL,
      pl: a.pl,
      marginUsed: a.marginUsed,
      marginAvailable: a.marginAvailable,
      openTradeCount: a.openTradeCount,
      openPositionCount: a.openPositionCount,
      pendingOrderCount: a.pendingOrderCount,
      lastTransactionID,
      createdTime: a.createdTime,
      hedgingEnabled: a.hedgingEnabled,
    });
  });

/** One `Instrument` → `BrokerInstrument` (§6, §7.3). */
export const instrumentSchema = z
  .looseObject({
    name: z.string(),
    type: z.string(),
    displayName: z.string(),
    pipLocation: z.number().int(),
    displayPrecision: z.number().int().min(0),
    tradeUnitsPrecision: z.number().int().min(0),
    minimumTradeSize: decimalSchema,
    maximumOrderUnits: decimalSchema,
    marginRate: decimalSchema,
  })
  .transform(
    (i): BrokerInstrument => ({
      name: i.name,
      type: i.type,
      displayName: i.displayName,
      pipLocation: i.pipLocation,
      displayPrecision: i.displayPrecision,
      tradeUnitsPrecision: i.tradeUnitsPrecision,
      minimumTradeSize: i.minimumTradeSize,
      maximumOrderUnits: i.maximumOrderUnits,
      marginRate: i.marginRate,
    }),
  );

/** `GET A/instruments` → `BrokerInstrument[]` (§7.3). */
export const instrumentsResponseSchema = z
  .looseObject({ instruments: z.array(instrumentSchema) })
  .transform((r) => r.instruments);

// ---- candles (§7.4) --------------------------------------------------------------------------

const ohlcSchema = z.looseObject({ o: decimalSchema, h: decimalSchema, l: decimalSchema, c: decimalSchema });

/** One wire candlestick; `mid`/`bid`/`ask` present as requested. */
export const wireCandleSchema = z.looseObject({
  time: dateTimeSchema,
  complete: z.boolean(),
  volume: z.number().int(),
  mid: opt(ohlcSchema),
  bid: opt(ohlcSchema),
  ask: opt(ohlcSchema),
});
export type WireCandle = z.output<typeof wireCandleSchema>;

/**
 * Candles response → core `Candle[]` in the order received (ascending). OHLC from `mid`, else
 * `bid`, else `ask` (CandleRequest.price); a candle with none of them fails the parse.
 */
export const candlesResponseSchema = z
  .looseObject({
    instrument: opt(z.string()),
    granularity: opt(z.string()),
    candles: z.array(wireCandleSchema),
  })
  .transform((r, ctx): Candle[] => {
    const out: Candle[] = [];
    for (const [i, c] of r.candles.entries()) {
      const p = c.mid ?? c.bid ?? c.ask;
      const time = timeToEpochMs(c.time);
      if (!p || Number.isNaN(time)) {
        ctx.addIssue({ code: "custom", message: `candle ${i} has no price object`, path: ["candles", i] });
        return z.NEVER;
      }
      out.push({
        time,
        open: Number(p.o),
        high: Number(p.h),
        low: Number(p.l),
        close: Number(p.c),
        volume: c.volume,
        complete: c.complete,
      });
    }
    return out;
  });

// ---- pricing (§7.5, §7.6) --------------------------------------------------------------------

const priceBucketSchema = z.looseObject({ price: decimalSchema, liquidity: opt(liquiditySchema) });

/** A wire ClientPrice → port `ClientPrice` (best = first bucket; closeout price if a side is empty). */
export const clientPriceSchema = z
  .looseObject({
    type: opt(z.string()),
    instrument: z.string(),
    time: dateTimeSchema,
    tradeable: opt(z.boolean()),
    status: opt(z.string()),
    bids: opt(z.array(priceBucketSchema)),
    asks: opt(z.array(priceBucketSchema)),
    closeoutBid: opt(decimalSchema),
    closeoutAsk: opt(decimalSchema),
  })
  .transform((p, ctx): ClientPrice => {
    const bid = p.bids?.[0]?.price ?? p.closeoutBid;
    const ask = p.asks?.[0]?.price ?? p.closeoutAsk;
    if (bid === undefined || ask === undefined) {
      ctx.addIssue({ code: "custom", message: `price for ${p.instrument} has no bid/ask` });
      return z.NEVER;
    }
    return compact({
      instrument: p.instrument,
      time: p.time,
      tradeable: p.tradeable ?? p.status === "tradeable",
      bid,
      ask,
      closeoutBid: p.closeoutBid,
      closeoutAsk: p.closeoutAsk,
    });
  });

/** `GET A/pricing` → `ClientPrice[]` (§7.5). */
export const pricingResponseSchema = z
  .looseObject({ time: opt(dateTimeSchema), prices: z.array(clientPriceSchema) })
  .transform((r) => r.prices);

/** Pricing-stream heartbeat `{"type":"HEARTBEAT","time":...}` (§7.6). */
export const heartbeatSchema = z.looseObject({ type: z.literal("HEARTBEAT"), time: dateTimeSchema });

// ---- orders and trades (§7.8–§7.12) ----------------------------------------------------------

/** 201 of POST orders: success is the presence of `orderFillTransaction` (§7.8). */
export const orderCreateResponseSchema = z
  .looseObject({
    orderCreateTransaction: opt(transactionSchema),
    orderFillTransaction: opt(transactionSchema),
    orderCancelTransaction: opt(transactionSchema),
    relatedTransactionIDs: opt(z.array(idSchema)),
    lastTransactionID: idSchema,
  })
  .transform(
    (r): MarketOrderResult =>
      compact({
        filled: r.orderFillTransaction !== undefined,
        orderCreateTransaction: r.orderCreateTransaction,
        orderFillTransaction: r.orderFillTransaction,
        orderCancelTransaction: r.orderCancelTransaction,
        cancelReason: r.orderFillTransaction ? undefined : r.orderCancelTransaction?.reason,
        relatedTransactionIDs: r.relatedTransactionIDs ?? [],
        lastTransactionID: r.lastTransactionID,
      }),
  );

/** 200 of PUT trades/{spec}/close (§7.12): filled, or cancelled (e.g. MARKET_HALTED). */
export const tradeCloseResponseSchema = z
  .looseObject({
    orderCreateTransaction: opt(transactionSchema),
    orderFillTransaction: opt(transactionSchema),
    orderCancelTransaction: opt(transactionSchema),
    lastTransactionID: idSchema,
  })
  .transform(
    (r): TradeCloseResult =>
      compact({
        filled: r.orderFillTransaction !== undefined,
        orderFillTransaction: r.orderFillTransaction,
        orderCancelTransaction: r.orderCancelTransaction,
        cancelReason: r.orderFillTransaction ? undefined : r.orderCancelTransaction?.reason,
        lastTransactionID: r.lastTransactionID,
      }),
  );

const dependentOrderSchema = z.looseObject({
  id: idSchema,
  state: z.string(),
  price: opt(decimalSchema),
  distance: opt(decimalSchema),
  trailingStopValue: opt(decimalSchema),
});

/** A wire Trade (§7.9) → port `Trade`. */
export const tradeSchema = z
  .looseObject({
    id: idSchema,
    instrument: z.string(),
    price: decimalSchema,
    openTime: dateTimeSchema,
    state: z.enum(["OPEN", "CLOSED", "CLOSE_WHEN_TRADEABLE"]),
    initialUnits: decimalSchema,
    currentUnits: decimalSchema,
    realizedPL: decimalSchema,
    unrealizedPL: opt(decimalSchema),
    marginUsed: opt(decimalSchema),
    averageClosePrice: opt(decimalSchema),
    closeTime: opt(dateTimeSchema),
    clientExtensions: opt(clientExtensionsSchema),
    takeProfitOrder: opt(dependentOrderSchema),
    stopLossOrder: opt(dependentOrderSchema),
    trailingStopLossOrder: opt(dependentOrderSchema),
  })
  .transform((t, ctx): Trade => {
    const tp = t.takeProfitOrder;
    const sl = t.stopLossOrder;
    const tsl = t.trailingStopLossOrder;
    if (tp && tp.price === undefined) {
      ctx.addIssue({ code: "custom", message: "takeProfitOrder without price" });
      return z.NEVER;
    }
    if (tsl && tsl.distance === undefined) {
      ctx.addIssue({ code: "custom", message: "trailingStopLossOrder without distance" });
      return z.NEVER;
    }
    return compact({
      id: t.id,
      instrument: t.instrument,
      price: t.price,
      openTime: t.openTime,
      state: t.state,
      initialUnits: t.initialUnits,
      currentUnits: t.currentUnits,
      realizedPL: t.realizedPL,
      unrealizedPL: t.unrealizedPL,
      marginUsed: t.marginUsed,
      averageClosePrice: t.averageClosePrice,
      closeTime: t.closeTime,
      clientExtensions: t.clientExtensions,
      takeProfitOrder: tp ? { id: tp.id, price: tp.price!, state: tp.state } : undefined,
      stopLossOrder: sl ? compact({ id: sl.id, price: sl.price, distance: sl.distance, state: sl.state }) : undefined,
      trailingStopLossOrder: tsl
        ? compact({ id: tsl.id, distance: tsl.distance!, trailingStopValue: tsl.trailingStopValue, state: tsl.state })
        : undefined,
    });
  });

/** `GET A/openTrades` / `GET A/trades` → `Trade[]`, newest first as sent (§7.9, §7.10). */
export const tradesResponseSchema = z
  .looseObject({ trades: z.array(tradeSchema), lastTransactionID: opt(idSchema) })
  .transform((r) => r.trades);

/** `GET A/trades/{spec}` → `Trade` (§7.11). */
export const tradeResponseSchema = z
  .looseObject({ trade: tradeSchema, lastTransactionID: opt(idSchema) })
  .transform((r) => r.trade);

/** `GET A/transactions/sinceid` (§7.15): ascending, strictly after the ID. */
export const transactionsResponseSchema = z.looseObject({
  transactions: z.array(transactionSchema),
  lastTransactionID: idSchema,
}).transform((r) => ({ transactions: r.transactions, lastTransactionID: r.lastTransactionID }));

/**
 * The reject transaction of a 4xx mutation body (`orderRejectTransaction`, or any
 * `*RejectTransaction` key), parsed; undefined when absent or unreadable.
 */
export function findRejectTransaction(body: unknown): Transaction | undefined {
  if (!body || typeof body !== "object") return undefined;
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (!/RejectTransaction$/.test(k)) continue;
    const parsed = transactionSchema.safeParse(v);
    if (parsed.success) return parsed.data;
  }
  return undefined;
}

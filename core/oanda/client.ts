/**
 * The OANDA v20 REST client: implements `BrokerPort` (core/broker/port.ts) over HTTP, against real
 * OANDA or the OANDA-protocol simulator alike (oanda/PROTOCOL.md §7, DESIGN.md §4).
 *
 * Request rules: prices and distances formatted to the instrument's `displayPrecision` with decimal
 * arithmetic (never a float such as `1.12247999999999`; PITFALLS.md §5), units as integer strings
 * (PROTOCOL.md §6), times sent as RFC3339 UTC with `Z` (PROTOCOL.md §2), candle `to` never in the
 * future and `includeFirst` always explicit with `from` (PITFALLS.md §8). Transport rules (headers,
 * timeout, limiter, retries, errors): http.ts.
 */
import type {
  AccountRef,
  AccountSummary,
  BrokerInstrument,
  BrokerPort,
  CandleRequest,
  ClientPrice,
  Environment,
  MarketOrderRequest,
  MarketOrderResult,
  PriceStreamHandlers,
  Trade,
  TradeCloseResult,
  Transaction,
} from "../broker/port";
import type { Candle } from "../candles";
import type { Clock } from "../clock";
import { GRANULARITY_SECONDS } from "../instruments";
import type { FetchLike, OandaLogger, RequestLimiter, RequestObserver } from "./http";
import { createHttp, withQuery } from "./http";
import {
  accountsResponseSchema,
  accountSummaryResponseSchema,
  candlesResponseSchema,
  instrumentsResponseSchema,
  normaliseTime,
  orderCreateResponseSchema,
  pricingResponseSchema,
  timeToEpochMs,
  tradeCloseResponseSchema,
  tradeResponseSchema,
  tradesResponseSchema,
  transactionsResponseSchema,
} from "./schemas";
import { formatUnits, marketOrderBody as orderBody } from "./order-body";
import { runPriceStream } from "./stream";

export { formatUnits };

/** OANDA's real hosts per environment (PROTOCOL.md §1). Streams live on the stream host only. */
export const OANDA_HOSTS = {
  practice: { api: "https://api-fxpractice.oanda.com", stream: "https://stream-fxpractice.oanda.com" },
  live: { api: "https://api-fxtrade.oanda.com", stream: "https://stream-fxtrade.oanda.com" },
} as const satisfies Record<Environment, { api: string; stream: string }>;

/** Largest `count` OANDA accepts for candles (PROTOCOL.md §5). */
export const MAX_CANDLE_COUNT = 5000;

export interface OandaClientOptions {
  environment: Environment;
  /** Bearer token of that environment; never logged. */
  token: string;
  /** REST base URL to which `/v3/...` is appended, e.g. `OANDA_HOSTS.practice.api` or `http://127.0.0.1:4001/practice`. */
  apiUrl: string;
  /** Stream base URL (same form), e.g. `OANDA_HOSTS.practice.stream`. */
  streamUrl: string;
  /** Time source: candle `to` check, backoff waits, stream watchdog (server side: `systemClock` of app/services/platform/system-clock.ts). */
  clock: Clock;
  /** Default: global `fetch`. */
  fetch?: FetchLike;
  logger?: OandaLogger;
  /** Per-request timeout, ms (default 10 000). */
  timeoutMs?: number;
  /** Retries of idempotent GETs (default 3). */
  retries?: number;
  /** Retry backoff of GETs: first delay and cap, ms (defaults 500 / 8 000). */
  minRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Pricing stream: silence before reconnect (default 10 000 ms), backoff first delay / cap (1 000 / 30 000 ms). */
  heartbeatTimeoutMs?: number;
  streamInitialBackoffMs?: number;
  streamMaxBackoffMs?: number;
  /** Jitter source in [0,1) (default Math.random). */
  random?: () => number;
  /** Cancels every REST request of the client, retries and backoff included (a bot tick's deadline). */
  signal?: AbortSignal;
  /** The process's OANDA rate limits (http.ts `RequestLimiter`; default none). */
  limiter?: RequestLimiter;
  /** Told of every REST attempt (http.ts `RequestObserver`; default none): the process's metrics. */
  observer?: RequestObserver;
}

/** A BrokerPort that also says which environment it talks to. */
export interface OandaClient extends BrokerPort {
  readonly environment: Environment;
}

/** Path segment: percent-encoded, but `@` kept as is for `@clientTradeID` specifiers (PROTOCOL.md §7.11). */
function seg(s: string): string {
  if (!s) throw new RangeError("Identificador vazio");
  return encodeURIComponent(s).replace(/%40/g, "@");
}

/**
 * An OANDA request time: RFC3339 UTC with `Z` (PROTOCOL.md §2: zone-less times are read as New York).
 * @throws RangeError when `s` is not RFC3339 with a zone (or a UNIX seconds string).
 */
export function toWireTime(s: string): string {
  const t = normaliseTime(s);
  if (t === undefined) throw new RangeError(`Data/hora inválida (use RFC3339 com zona): ${s}`);
  return t;
}

/** Builds the OANDA v20 client. See OandaClientOptions; every method throws BrokerError on failure. */
export function createOandaClient(options: OandaClientOptions): OandaClient {
  const clock = options.clock;
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const api = options.apiUrl.replace(/\/+$/, "");
  const streamBase = options.streamUrl.replace(/\/+$/, "");
  const http = createHttp({
    token: options.token,
    clock,
    fetch: fetchImpl,
    ...(options.logger && { logger: options.logger }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.retries !== undefined && { retries: options.retries }),
    ...(options.minRetryDelayMs !== undefined && { minRetryDelayMs: options.minRetryDelayMs }),
    ...(options.maxRetryDelayMs !== undefined && { maxRetryDelayMs: options.maxRetryDelayMs }),
    ...(options.random && { random: options.random }),
    ...(options.signal && { signal: options.signal }),
    ...(options.limiter && { limiter: options.limiter }),
    ...(options.observer && { observer: options.observer }),
  });
  /** displayPrecision learnt from `getInstruments` (preferred over instruments.ts defaults). */
  const precision = new Map<string, number>();

  const acct = (accountId: string) => `${api}/v3/accounts/${seg(accountId)}`;

  const marketOrderBody = (o: MarketOrderRequest) => orderBody(o, (instrument) => precision.get(instrument));

  /** Query of the candles endpoint (PROTOCOL.md §7.4, PITFALLS.md §8). */
  const candleQuery = (req: CandleRequest) => {
    const now = clock.now().getTime();
    const from = req.from !== undefined ? toWireTime(req.from) : undefined;
    let to = req.to !== undefined ? toWireTime(req.to) : undefined;
    if (to !== undefined && timeToEpochMs(to) >= now) to = undefined; // "to in the future" → 400: omit = now
    if (req.count !== undefined && (!Number.isInteger(req.count) || req.count < 1 || req.count > MAX_CANDLE_COUNT))
      throw new RangeError(`count deve ser inteiro entre 1 e ${MAX_CANDLE_COUNT}`);
    let count: number | undefined = from !== undefined && to !== undefined ? undefined : req.count;
    if (from !== undefined && to === undefined && count === undefined) {
      // Without `to`, OANDA would stop at its default 500 candles: ask for enough to reach "now".
      const sec = GRANULARITY_SECONDS[req.granularity];
      if (sec !== undefined) {
        const span = Math.ceil((now - timeToEpochMs(from)) / (sec * 1000)) + 1;
        count = Math.min(MAX_CANDLE_COUNT, Math.max(1, span));
      }
    }
    return {
      price: req.price ?? "M",
      granularity: req.granularity,
      count,
      from,
      to,
      includeFirst: from !== undefined ? true : undefined,
    };
  };

  return {
    environment: options.environment,

    async listAccounts(): Promise<AccountRef[]> {
      return http.request({ method: "GET", url: `${api}/v3/accounts`, schema: accountsResponseSchema });
    },

    async getAccountSummary(accountId: string): Promise<AccountSummary> {
      return http.request({ method: "GET", url: `${acct(accountId)}/summary`, schema: accountSummaryResponseSchema });
    },

    async getInstruments(accountId: string, instruments?: string[]): Promise<BrokerInstrument[]> {
      const list = await http.request({
        method: "GET",
        url: `${acct(accountId)}/instruments`,
        query: { instruments: instruments?.length ? instruments.join(",") : undefined },
        schema: instrumentsResponseSchema,
      });
      for (const i of list) precision.set(i.name, i.displayPrecision);
      return list;
    },

    async getCandles(instrument: string, req: CandleRequest): Promise<Candle[]> {
      return http.request({
        method: "GET",
        url: `${api}/v3/instruments/${seg(instrument)}/candles`,
        query: candleQuery(req),
        schema: candlesResponseSchema,
      });
    },

    async getPricing(accountId: string, instruments: string[]): Promise<ClientPrice[]> {
      return http.request({
        method: "GET",
        url: `${acct(accountId)}/pricing`,
        query: { instruments: instruments.join(",") },
        schema: pricingResponseSchema,
      });
    },

    streamPricing(
      accountId: string,
      instruments: string[],
      handlers: PriceStreamHandlers,
      signal: AbortSignal,
    ): Promise<void> {
      const url = withQuery(`${streamBase}/v3/accounts/${seg(accountId)}/pricing/stream`, {
        instruments: instruments.join(","),
        snapshot: true,
      });
      return runPriceStream({
        url,
        headers: http.headers(),
        fetch: fetchImpl,
        clock,
        handlers,
        signal,
        ...(options.logger && { logger: options.logger }),
        ...(options.heartbeatTimeoutMs !== undefined && { heartbeatTimeoutMs: options.heartbeatTimeoutMs }),
        ...(options.streamInitialBackoffMs !== undefined && { initialBackoffMs: options.streamInitialBackoffMs }),
        ...(options.streamMaxBackoffMs !== undefined && { maxBackoffMs: options.streamMaxBackoffMs }),
        ...(options.random && { random: options.random }),
        errorFromResponse: (res) => http.errorFromResponse(res, "GET pricing/stream"),
      });
    },

    async createMarketOrder(accountId: string, order: MarketOrderRequest): Promise<MarketOrderResult> {
      return http.request({
        method: "POST",
        url: `${acct(accountId)}/orders`,
        body: marketOrderBody(order),
        schema: orderCreateResponseSchema,
      });
    },

    async listOpenTrades(accountId: string): Promise<Trade[]> {
      return http.request({ method: "GET", url: `${acct(accountId)}/openTrades`, schema: tradesResponseSchema });
    },

    async listTrades(
      accountId: string,
      q: { state?: "OPEN" | "CLOSED" | "ALL"; count?: number; beforeID?: string; instrument?: string },
    ): Promise<Trade[]> {
      return http.request({
        method: "GET",
        url: `${acct(accountId)}/trades`,
        query: { state: q.state, instrument: q.instrument, count: q.count, beforeID: q.beforeID },
        schema: tradesResponseSchema,
      });
    },

    async getTrade(accountId: string, tradeSpecifier: string): Promise<Trade> {
      return http.request({
        method: "GET",
        url: `${acct(accountId)}/trades/${seg(tradeSpecifier)}`,
        schema: tradeResponseSchema,
      });
    },

    async closeTrade(accountId: string, tradeSpecifier: string, units?: string): Promise<TradeCloseResult> {
      const body = { units: units === undefined || units === "ALL" ? "ALL" : formatUnits(units, { positive: true }) };
      return http.request({
        method: "PUT",
        url: `${acct(accountId)}/trades/${seg(tradeSpecifier)}/close`,
        body,
        schema: tradeCloseResponseSchema,
      });
    },

    async transactionsSinceId(
      accountId: string,
      id: string,
    ): Promise<{ transactions: Transaction[]; lastTransactionID: string }> {
      return http.request({
        method: "GET",
        url: `${acct(accountId)}/transactions/sinceid`,
        query: { id },
        schema: transactionsResponseSchema,
      });
    },
  };
}

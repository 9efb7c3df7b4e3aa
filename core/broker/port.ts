/**
 * The broker port: what the product needs from a broker, in OANDA v20 terms (oanda/PROTOCOL.md §7).
 * `core/oanda/client.ts` implements it over HTTP, against real OANDA or the simulator alike.
 * Prices, units and money are decimal strings exactly as on the wire; ids are strings; times are
 * RFC3339 strings (UTC).
 */
import type { Candle } from "../candles";

export type Environment = "practice" | "live";

export interface AccountRef {
  id: string;
  tags: string[];
}

export interface AccountSummary {
  id: string;
  alias?: string;
  currency: string;
  balance: string;
  NAV: string;
  unrealizedPL: string;
  pl: string;
  marginUsed: string;
  marginAvailable: string;
  openTradeCount: number;
  openPositionCount: number;
  pendingOrderCount: number;
  lastTransactionID: string;
  createdTime?: string;
  hedgingEnabled?: boolean;
}

export interface BrokerInstrument {
  name: string;
  type: string;
  displayName: string;
  pipLocation: number;
  displayPrecision: number;
  tradeUnitsPrecision: number;
  minimumTradeSize: string;
  maximumOrderUnits: string;
  marginRate: string;
}

export interface ClientPrice {
  instrument: string;
  time: string;
  tradeable: boolean;
  /** Best bid / ask (first bucket). */
  bid: string;
  ask: string;
  closeoutBid?: string;
  closeoutAsk?: string;
}

export interface CandleRequest {
  granularity: string;
  count?: number;
  /** RFC3339 UTC. */
  from?: string;
  to?: string;
  /** "M" (default), "B", "A", "BA", "MBA": which sides to read; `Candle` is built from mid (or bid when only bid). */
  price?: string;
}

export interface ClientExtensions {
  id?: string;
  tag?: string;
  comment?: string;
}

export interface MarketOrderRequest {
  instrument: string;
  /** Signed integer string: + buy, − sell. */
  units: string;
  /** Prices formatted to the instrument's displayPrecision. */
  stopLossOnFill?: { price?: string; distance?: string };
  takeProfitOnFill?: { price: string };
  trailingStopLossOnFill?: { distance: string };
  clientExtensions?: ClientExtensions;
  tradeClientExtensions?: ClientExtensions;
}

/** A transaction as OANDA sends it; we read known fields and keep the rest. */
export interface Transaction {
  id: string;
  type: string;
  time: string;
  accountID?: string;
  batchID?: string;
  reason?: string;
  instrument?: string;
  units?: string;
  price?: string;
  pl?: string;
  financing?: string;
  accountBalance?: string;
  orderID?: string;
  tradeID?: string;
  clientExtensions?: ClientExtensions;
  tradeClientExtensions?: ClientExtensions;
  tradeOpened?: { tradeID: string; units: string; price?: string; clientExtensions?: ClientExtensions };
  tradesClosed?: { tradeID: string; units: string; price?: string; realizedPL: string; financing?: string }[];
  tradeReduced?: { tradeID: string; units: string; price?: string; realizedPL: string; financing?: string };
  rejectReason?: string;
  [key: string]: unknown;
}

export interface MarketOrderResult {
  /** True when an `orderFillTransaction` is present (PROTOCOL.md §7.8: success is decided by the fill, not the status). */
  filled: boolean;
  orderCreateTransaction?: Transaction;
  orderFillTransaction?: Transaction;
  orderCancelTransaction?: Transaction;
  /** Cancel reason when not filled, e.g. MARKET_HALTED. */
  cancelReason?: string;
  relatedTransactionIDs: string[];
  lastTransactionID: string;
}

export interface Trade {
  id: string;
  instrument: string;
  price: string;
  openTime: string;
  state: "OPEN" | "CLOSED" | "CLOSE_WHEN_TRADEABLE";
  initialUnits: string;
  currentUnits: string;
  realizedPL: string;
  unrealizedPL?: string;
  marginUsed?: string;
  averageClosePrice?: string;
  closeTime?: string;
  clientExtensions?: ClientExtensions;
  takeProfitOrder?: { id: string; price: string; state: string };
  stopLossOrder?: { id: string; price?: string; distance?: string; state: string };
  trailingStopLossOrder?: { id: string; distance: string; trailingStopValue?: string; state: string };
}

export interface TradeCloseResult {
  filled: boolean;
  orderFillTransaction?: Transaction;
  orderCancelTransaction?: Transaction;
  cancelReason?: string;
  lastTransactionID: string;
}

export interface PriceStreamHandlers {
  onPrice(price: ClientPrice): void;
  onHeartbeat?(time: string): void;
  /** Called when the stream drops and will be reconnected after `delayMs`. */
  onReconnect?(attempt: number, delayMs: number, error: unknown): void;
}

/**
 * One broker account seen through one token and environment.
 *
 * Error contract of every method, as the OANDA adapter implements it (core/oanda/client.ts over
 * core/oanda/http.ts; oanda/PROTOCOL.md §4, PITFALLS.md §4/§10):
 * - `BrokerError` (core/oanda/errors.ts) for any failed call: `kind` `auth` (401), `forbidden` (403),
 *   `not_found` (404), `bad_request` (other 4xx, with `errorCode` and, for a refused order or close,
 *   `rejectTransaction`), `rate_limited` (429), `server` (5xx), `network` (no answer, timeout of 10 s
 *   per attempt, body cut off) or `invalid_response` (a 2xx body that is not JSON or fails its schema);
 *   `retryable` is true for `network`, `server` and `rate_limited`;
 * - `RangeError`, thrown before anything is sent, for input the adapter refuses to put on the wire
 *   (an empty account id or trade specifier, and the method-specific cases below);
 * - the abort reason of the client's `signal` once it aborts (live bot: the tick's deadline,
 *   `TickDeadlineError`, or a lost user lock, `LockLostError`; bound by the live tick runner's
 *   `brokerWithSignal`, ADR 0013).
 * "Retried" means by the adapter itself: GETs only, up to 3 more attempts on a retryable error, with
 * exponential backoff on the Clock (500 ms doubling, capped at 8 s, `Retry-After` honoured); POST and
 * PUT are sent once. "Idempotent" is about the broker: whether sending the same call twice leaves the
 * account as sending it once.
 */
export interface BrokerPort {
  /** Accounts the token can reach (`GET /v3/accounts`). Throws BrokerError (`auth` for a bad token or one of the other environment). Retried; idempotent (read-only). */
  listAccounts(): Promise<AccountRef[]>;
  /** Balance, NAV, margin and the last transaction id of one account (`GET …/summary`). Throws BrokerError (`forbidden`: the token cannot reach that account). Retried; idempotent (read-only). */
  getAccountSummary(accountId: string): Promise<AccountSummary>;
  /** Instruments the account offers, with precision, minimum trade size and margin rate (`GET …/instruments`); also teaches the adapter each instrument's displayPrecision for later orders. Throws BrokerError. Retried; idempotent (read-only). */
  getInstruments(accountId: string, instruments?: string[]): Promise<BrokerInstrument[]>;
  /**
   * Candles of one instrument (`GET /v3/instruments/{instrument}/candles`); a `to` in the future is
   * dropped (means now) and `includeFirst` is always sent with `from` (PITFALLS.md §8).
   * Throws RangeError for a `count` outside 1–5000 or a time without a zone; BrokerError otherwise.
   * Retried; idempotent (read-only).
   */
  getCandles(instrument: string, req: CandleRequest): Promise<Candle[]>;
  /** Current bid/ask of the instruments (`GET …/pricing`). Throws BrokerError. Retried; idempotent (read-only). */
  getPricing(accountId: string, instruments: string[]): Promise<ClientPrice[]>;
  /**
   * Streams prices until `signal` aborts, reconnecting with backoff (1 s doubling, capped at 30 s,
   * reset after data) on network errors, 5xx, 429, a server-ended stream and 10 s without data;
   * resolves when aborted. Rejects with BrokerError only when connecting is refused for good
   * (401, 403, 404, other 4xx). Its own reconnection is the retry; idempotent (read-only).
   */
  streamPricing(accountId: string, instruments: string[], handlers: PriceStreamHandlers, signal: AbortSignal): Promise<void>;
  /**
   * Sends one market order (`POST …/orders`), stop loss / take profit / trailing stop attached on fill;
   * a 201 without a fill resolves with `filled: false` and `cancelReason` (e.g. MARKET_HALTED,
   * INSUFFICIENT_MARGIN; PITFALLS.md §4). Throws RangeError for units that are not a non-zero
   * integer, an invalid price, or a stop loss with both or neither of price and distance; BrokerError
   * (`bad_request` with `rejectTransaction` when the broker rejects it). Never retried. Not idempotent:
   * OANDA opens a second trade for a second identical order; the product makes it at most once with
   * order intents keyed by `clientExtensions.id` (app/services/trading/order-send.server.ts, ADR 0002).
   */
  createMarketOrder(accountId: string, order: MarketOrderRequest): Promise<MarketOrderResult>;
  /** The account's open trades with their attached orders (`GET …/openTrades`). Throws BrokerError. Retried; idempotent (read-only). */
  listOpenTrades(accountId: string): Promise<Trade[]>;
  /** Trades by state, newest first, paged with `beforeID` (`GET …/trades`). Throws BrokerError. Retried; idempotent (read-only). */
  listTrades(accountId: string, q: { state?: "OPEN" | "CLOSED" | "ALL"; count?: number; beforeID?: string; instrument?: string }): Promise<Trade[]>;
  /** One trade by id or `@clientTradeID` (`GET …/trades/{specifier}`). Throws BrokerError (`not_found`, NO_SUCH_TRADE, for an unknown trade). Retried; idempotent (read-only). */
  getTrade(accountId: string, tradeSpecifier: string): Promise<Trade>;
  /**
   * Closes a trade, all of it (`units` omitted or "ALL") or a positive number of units
   * (`PUT …/trades/{specifier}/close`); a 200 without a fill resolves with `filled: false` and
   * `cancelReason` (e.g. MARKET_HALTED). Throws RangeError for units that are not a positive integer;
   * BrokerError (`bad_request`/`not_found` for a trade that is already closed or unknown, or units
   * above the trade's size). Never retried. A full close is idempotent in effect (a repeat finds the
   * trade closed and fails, it closes nothing else); a partial close is not (each repeat reduces the
   * trade again).
   */
  closeTrade(accountId: string, tradeSpecifier: string, units?: string): Promise<TradeCloseResult>;
  /** Transactions after `id`, ascending, and the account's last id (`GET …/transactions/sinceid`). Throws BrokerError (404/416 when the broker no longer has `id`: the reconcile then restarts from the summary). Retried; idempotent (read-only). */
  transactionsSinceId(accountId: string, id: string): Promise<{ transactions: Transaction[]; lastTransactionID: string }>;
}

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

/** One broker account seen through one token and environment. */
export interface BrokerPort {
  listAccounts(): Promise<AccountRef[]>;
  getAccountSummary(accountId: string): Promise<AccountSummary>;
  getInstruments(accountId: string, instruments?: string[]): Promise<BrokerInstrument[]>;
  getCandles(instrument: string, req: CandleRequest): Promise<Candle[]>;
  getPricing(accountId: string, instruments: string[]): Promise<ClientPrice[]>;
  /** Streams prices until `signal` aborts, reconnecting with backoff; resolves when aborted. */
  streamPricing(accountId: string, instruments: string[], handlers: PriceStreamHandlers, signal: AbortSignal): Promise<void>;
  createMarketOrder(accountId: string, order: MarketOrderRequest): Promise<MarketOrderResult>;
  listOpenTrades(accountId: string): Promise<Trade[]>;
  listTrades(accountId: string, q: { state?: "OPEN" | "CLOSED" | "ALL"; count?: number; beforeID?: string; instrument?: string }): Promise<Trade[]>;
  getTrade(accountId: string, tradeSpecifier: string): Promise<Trade>;
  closeTrade(accountId: string, tradeSpecifier: string, units?: string): Promise<TradeCloseResult>;
  transactionsSinceId(accountId: string, id: string): Promise<{ transactions: Transaction[]; lastTransactionID: string }>;
}

/**
 * The simulator's broker state (users, accounts, trades, orders, transactions) as plain JSON-able
 * data, so `state-store.ts` can persist it as is. Money/prices/units are decimal strings.
 */
import type { Environment } from "../broker/port";

/** OANDA ClientExtensions. */
export interface ClientExt {
  id?: string;
  tag?: string;
  comment?: string;
}

/** A transaction exactly as served on the wire (RFC3339 times, string ids). */
export type Tx = { id: string; type: string; time: string; batchID?: string } & Record<string, unknown>;

export type DependentOrderType = "TAKE_PROFIT" | "STOP_LOSS" | "TRAILING_STOP_LOSS";

/** A TP / SL / trailing SL order attached to a trade. */
export interface OrderState {
  id: string;
  type: DependentOrderType;
  tradeID: string;
  instrument: string;
  price?: string;
  distance?: string;
  /** Trailing stops only: current trigger price (displayPrecision). */
  trailingStopValue?: string;
  createTime: string;
  state: "PENDING" | "FILLED" | "CANCELLED";
  clientExtensions?: ClientExt;
  fillingTransactionID?: string;
  filledTime?: string;
  tradeClosedIDs?: string[];
  cancellingTransactionID?: string;
  cancelledTime?: string;
}

export interface TradeState {
  id: string;
  instrument: string;
  price: string;
  openTime: string;
  state: "OPEN" | "CLOSED";
  initialUnits: string;
  currentUnits: string;
  realizedPL: string;
  initialMarginRequired: string;
  clientExtensions?: ClientExt;
  takeProfitOrderID?: string;
  stopLossOrderID?: string;
  trailingStopLossOrderID?: string;
  closingTransactionIDs: string[];
  /** Σ |closed units| × close price and Σ |closed units|, for averageClosePrice. */
  closedValue: string;
  closedUnits: string;
  closeTime?: string;
}

export interface AccountState {
  id: string;
  userID: number;
  environment: Environment;
  currency: string;
  createdTime: string;
  balance: string;
  pl: string;
  lastTransactionID: number;
  transactions: Tx[];
  trades: TradeState[];
  orders: OrderState[];
  /** Realized P&L per instrument and side, in account currency. */
  positionPL: Record<string, { long: string; short: string }>;
  /** The account's minimum order size per instrument (units; control API `POST /sim/accounts/{id}/instruments`), else "1". */
  minimumTradeSize?: Record<string, string>;
  /** The instruments the account offers (control API), else every instrument of the market. */
  offered?: string[];
}

export interface UserState {
  userID: number;
  token: string;
  environment: Environment;
  accountIDs: string[];
}

export interface SimState {
  version: 1;
  nextUserID: number;
  users: UserState[];
  accounts: AccountState[];
  /** Sim time (epoch ms) when last saved: a restart resumes from here. */
  simNow?: number;
  /** Sim time up to which stops/targets have been evaluated. */
  lastEval?: number;
}

/** A fresh, empty state. */
export function emptyState(): SimState {
  return { version: 1, nextUserID: 1_000_001, users: [], accounts: [] };
}

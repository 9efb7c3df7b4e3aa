/**
 * Order fills on a netting account (hedgingEnabled:false, like OANDA US accounts): a fill first
 * closes/reduces the given trades (or, for a new order, the opposite-side trades of the instrument,
 * oldest first) and opens a trade for the rest. Realized P&L per trade =
 * (fill price − open price) × closed units (signed as the trade) × rate(quote→home) at mid,
 * rounded to 4 decimals; the balance moves by the sum. Dependent orders of a fully closed trade
 * are cancelled with LINKED_TRADE_CLOSED in the same batch.
 */
import { Decimal, formatMoney } from "../decimal";
import { instrumentSpec, formatPrice } from "../instruments";
import { MARGIN_RATE, openTrades } from "./accounts";
import type { Pricing, Quote } from "./pricing";
import { LIQUIDITY } from "./pricing";
import type { AccountState, ClientExt, TradeState } from "./state";
import { addTx, type Batch } from "./transactions";
import { rfc3339 } from "./time";
import { orderById } from "./lookup";

export interface FillArgs {
  instrument: string;
  /** Signed units of the order (+ buy, − sell). */
  units: Decimal;
  quote: Quote;
  orderID: string;
  /** ORDER_FILL reason: MARKET_ORDER, MARKET_ORDER_TRADE_CLOSE, STOP_LOSS_ORDER, … */
  reason: string;
  /** Execution price; default ask for buys, bid for sells. */
  price?: Decimal;
  /** Trades to reduce (trade close, triggers); default: opposite-side open trades, oldest first. */
  targets?: TradeState[];
  /** Open a trade with units left after reducing (new orders only). */
  openRemainder: boolean;
  tradeClientExtensions?: ClientExt;
}

export interface FillResult {
  fill: Record<string, unknown>;
  opened?: TradeState;
}

/** Units of `units` that would open a new trade after netting against opposite open trades. */
export function openingUnits(acct: AccountState, instrument: string, units: Decimal): Decimal {
  const opposite = openTrades(acct).filter((t) => t.instrument === instrument && new Decimal(t.currentUnits).isPositive() !== units.isPositive());
  const held = opposite.reduce((s, t) => s.add(new Decimal(t.currentUnits).abs()), new Decimal(0));
  return Decimal.max(0, units.abs().sub(held));
}

/** Initial margin (account currency) for |units| of an instrument at `q`. */
export function marginFor(pricing: Pricing, acct: AccountState, instrument: string, units: Decimal, q: Quote, now: number): Decimal {
  return units.abs().mul(q.mid).mul(pricing.rate(instrumentSpec(instrument).quote, acct.currency, now)).mul(MARGIN_RATE);
}

/** Cancels every pending dependent order of `trade` (ORDER_CANCEL `reason`; with `closeTxID`, the closing fill, it adds closedTradeID/tradeCloseTransactionID). */
export function cancelDependents(b: Batch, trade: TradeState, reason: string, closeTxID?: string): void {
  for (const id of [trade.takeProfitOrderID, trade.stopLossOrderID, trade.trailingStopLossOrderID]) {
    const o = orderById(b.acct, id);
    if (!o || o.state !== "PENDING") continue;
    const tx = addTx(b, "ORDER_CANCEL", {
      orderID: o.id, ...(o.clientExtensions?.id ? { clientOrderID: o.clientExtensions.id } : {}), reason,
      ...(closeTxID ? { closedTradeID: trade.id, tradeCloseTransactionID: closeTxID } : {}),
    });
    o.state = "CANCELLED";
    o.cancellingTransactionID = tx.id;
    o.cancelledTime = tx.time;
  }
}

/** Executes one ORDER_FILL in batch `b` (see module rules); mutates the account. */
export function fillOrder(pricing: Pricing, b: Batch, a: FillArgs): FillResult {
  const acct = b.acct;
  const inst = a.instrument;
  const q = a.quote;
  const now = b.time;
  const buy = a.units.isPositive();
  const price = a.price ?? (buy ? q.ask : q.bid);
  const conv = pricing.rate(instrumentSpec(inst).quote, acct.currency, now);
  const halfCostPerUnit = q.ask.sub(q.bid).div(2).mul(conv);
  const fillID = String(acct.lastTransactionID + 1);
  const time = rfc3339(now);
  const targets = a.targets ?? openTrades(acct).filter((t) => t.instrument === inst && new Decimal(t.currentUnits).isPositive() !== buy);
  let remaining = a.units.abs();
  let plTotal = new Decimal(0), quotePL = new Decimal(0);
  const tradesClosed: Record<string, unknown>[] = [];
  let tradeReduced: Record<string, unknown> | undefined;
  const fullyClosed: TradeState[] = [];
  acct.positionPL[inst] ??= { long: formatMoney(0), short: formatMoney(0) };
  const posPL = acct.positionPL[inst]!;
  for (const t of targets) {
    if (remaining.lte(0)) break;
    const cur = new Decimal(t.currentUnits);
    const take = Decimal.min(remaining, cur.abs());
    const signed = cur.isPositive() ? take : take.neg();
    const qpl = price.sub(t.price).mul(signed);
    const pl = qpl.mul(conv).toDecimalPlaces(4);
    remaining = remaining.sub(take);
    plTotal = plTotal.add(pl);
    quotePL = quotePL.add(qpl);
    t.currentUnits = cur.sub(signed).toFixed();
    t.realizedPL = formatMoney(new Decimal(t.realizedPL).add(pl));
    t.closedValue = new Decimal(t.closedValue).add(take.mul(price)).toFixed();
    t.closedUnits = new Decimal(t.closedUnits).add(take).toFixed();
    t.closingTransactionIDs.push(fillID);
    if (cur.isPositive()) posPL.long = formatMoney(new Decimal(posPL.long).add(pl));
    else posPL.short = formatMoney(new Decimal(posPL.short).add(pl));
    const entry = {
      tradeID: t.id, units: signed.neg().toFixed(), price: formatPrice(inst, price), realizedPL: formatMoney(pl),
      financing: formatMoney(0), guaranteedExecutionFee: formatMoney(0), halfSpreadCost: formatMoney(take.mul(halfCostPerUnit)),
    };
    if (new Decimal(t.currentUnits).isZero()) {
      t.state = "CLOSED";
      t.closeTime = time;
      tradesClosed.push(entry);
      fullyClosed.push(t);
    } else tradeReduced = entry;
  }
  acct.balance = formatMoney(new Decimal(acct.balance).add(plTotal));
  acct.pl = formatMoney(new Decimal(acct.pl).add(plTotal));
  let opened: TradeState | undefined;
  let tradeOpened: Record<string, unknown> | undefined;
  const executed = a.openRemainder ? a.units.abs() : a.units.abs().sub(remaining);
  if (a.openRemainder && remaining.gt(0)) {
    const units = buy ? remaining : remaining.neg();
    const margin = formatMoney(marginFor(pricing, acct, inst, remaining, q, now));
    opened = {
      id: fillID, instrument: inst, price: formatPrice(inst, price), openTime: time, state: "OPEN",
      initialUnits: units.toFixed(), currentUnits: units.toFixed(), realizedPL: formatMoney(0), initialMarginRequired: margin,
      closingTransactionIDs: [], closedValue: "0", closedUnits: "0",
      ...(a.tradeClientExtensions ? { clientExtensions: a.tradeClientExtensions } : {}),
    };
    acct.trades.push(opened);
    tradeOpened = {
      tradeID: fillID, units: units.toFixed(), price: formatPrice(inst, price), guaranteedExecutionFee: formatMoney(0),
      halfSpreadCost: formatMoney(remaining.mul(halfCostPerUnit)), initialMarginRequired: margin,
      ...(a.tradeClientExtensions ? { clientExtensions: a.tradeClientExtensions } : {}),
    };
  }
  const factor = conv.toSignificantDigits(6).toFixed();
  const spread = q.ask.sub(q.bid);
  const fill = addTx(b, "ORDER_FILL", {
    orderID: a.orderID, instrument: inst, units: (buy ? executed : executed.neg()).toFixed(), requestedUnits: a.units.toFixed(),
    price: formatPrice(inst, price), pl: formatMoney(plTotal), quotePL: quotePL.toFixed(), financing: formatMoney(0),
    commission: formatMoney(0), accountBalance: acct.balance, gainQuoteHomeConversionFactor: factor,
    lossQuoteHomeConversionFactor: factor, guaranteedExecutionFee: formatMoney(0),
    halfSpreadCost: formatMoney(executed.mul(halfCostPerUnit)), fullVWAP: formatPrice(inst, price),
    fullPrice: {
      type: "PRICE", bids: [{ price: formatPrice(inst, q.bid), liquidity: LIQUIDITY }],
      asks: [{ price: formatPrice(inst, q.ask), liquidity: LIQUIDITY }],
      closeoutBid: formatPrice(inst, q.bid.sub(spread.div(2))), closeoutAsk: formatPrice(inst, q.ask.add(spread.div(2))),
      timestamp: rfc3339(q.time),
    },
    reason: a.reason,
    ...(tradeOpened ? { tradeOpened } : {}),
    ...(tradesClosed.length ? { tradesClosed } : {}),
    ...(tradeReduced ? { tradeReduced } : {}),
  });
  if (fill.id !== fillID) throw new Error("transaction id mismatch");
  for (const t of fullyClosed) cancelDependents(b, t, "LINKED_TRADE_CLOSED", fill.id);
  return { fill, opened };
}

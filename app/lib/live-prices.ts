/**
 * Live figures from streamed prices (PRODUCT.md §3 Live price, §4 live price chip; issue 11): an open
 * trade's current price and unrealized P&L, and the account's unrealized P&L and NAV estimate,
 * computed with decimals (never floats) from the trade's units and entry and the latest price.
 *
 * Rules (OANDA v20 trade P&L): a long position is valued at the bid, a short one at the ask;
 * P&L in the quote currency = units × (close − entry) for a buy, units × (entry − close) for a sell;
 * converted to the account currency with the streamed prices themselves: 1 when the quote is the
 * account currency, ÷ ACC_QUOTE's mid, or × QUOTE_ACC's mid. When no rate is at hand (e.g. a
 * EUR account trading USD_JPY without EUR_JPY streamed) the P&L stays the polled one.
 */
import { directRate } from "../../core/conversion";
import { Decimal } from "../../core/decimal";

/** A streamed price (the `price` event of /api/stream/*, or an entry of the open-trades snapshot). */
export interface LivePrice {
  instrument: string;
  bid: string;
  ask: string;
  mid: string;
  time: string;
}

/** Latest price per instrument. */
export type LivePrices = Readonly<Record<string, LivePrice>>;

/** The fields of an open trade the computation reads. */
export interface LiveTradeInput {
  instrument: string;
  side: string;
  units: string;
  openPrice: string;
}

function pair(instrument: string): [string, string] | null {
  const m = /^([A-Z]{3})_([A-Z]{3})$/.exec(instrument);
  return m ? [m[1]!, m[2]!] : null;
}

/**
 * Rate to turn an amount in `quote` into `account` currency from the streamed prices (their `mid`),
 * or null: core/conversion.ts `directRate` (1, the direct pair, or the inverse pair; no route
 * through USD: a rate the stream does not carry leaves the polled P&L).
 */
export function quoteToAccountRate(quote: string, account: string, prices: LivePrices): Decimal | null {
  return directRate(quote, account, (instrument) => streamedMid(prices[instrument])) ?? null;
}

/** The streamed mid of a price; a missing, unreadable or non-positive one counts as absent (core/conversion.ts `midsOf`). */
function streamedMid(p: LivePrice | undefined): Decimal | undefined {
  if (!p) return undefined;
  try {
    const mid = new Decimal(p.mid);
    return mid.isFinite() && mid.gt(0) ? mid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The trade's close-out price and unrealized P&L in the account currency at the latest streamed
 * price (P&L to 4 decimals, as OANDA shows account amounts); null without a price for its instrument.
 * `pnl` is null when the quote currency cannot be converted.
 */
export function liveTrade(trade: LiveTradeInput, prices: LivePrices, accountCurrency: string): { price: string; pnl: string | null } | null {
  const p = prices[trade.instrument];
  const ccy = pair(trade.instrument);
  if (!p || !ccy) return null;
  const sell = trade.side === "sell";
  const close = new Decimal(sell ? p.ask : p.bid);
  const units = new Decimal(trade.units).abs();
  const quotePnl = sell ? new Decimal(trade.openPrice).minus(close).times(units) : close.minus(trade.openPrice).times(units);
  const rate = quoteToAccountRate(ccy[1], accountCurrency, prices);
  return { price: close.toString(), pnl: rate ? quotePnl.times(rate).toDecimalPlaces(4).toFixed(4) : null };
}

/** An open trade view with its current price (and P&L when computable) from the stream. */
export function withLivePrice<T extends LiveTradeInput & { currentPrice: string | null; unrealizedPL: string }>(trade: T, prices: LivePrices, accountCurrency: string): T {
  const live = liveTrade(trade, prices, accountCurrency);
  if (!live) return trade;
  return { ...trade, currentPrice: live.price, unrealizedPL: live.pnl ?? trade.unrealizedPL };
}

/**
 * The account's unrealized P&L and NAV estimate (balance + unrealized) from the open trades at the
 * streamed prices — only when every trade's P&L is computable; otherwise the polled figures.
 */
export function liveAccount<A extends { currency: string; balance?: string | null; nav?: string | null; unrealizedPL?: string | null }>(
  account: A,
  trades: readonly LiveTradeInput[],
  prices: LivePrices,
): A {
  if (trades.length === 0 || account.balance === null || account.balance === undefined) return account;
  let total = new Decimal(0);
  for (const t of trades) {
    const live = liveTrade(t, prices, account.currency);
    if (!live || live.pnl === null) return account;
    total = total.plus(live.pnl);
  }
  return { ...account, unrealizedPL: total.toFixed(4), nav: total.plus(account.balance).toFixed(4) };
}

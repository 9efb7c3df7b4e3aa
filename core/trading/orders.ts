/**
 * The market order of an "open" decision, as both brokers (OANDA/the simulator over HTTP, and the
 * backtest's in-process simulator) receive it: units signed, stop loss and take profit attached on
 * fill (and the scalper's trailing stop), tagged as the AI's (core/trading/exits.ts).
 */
import type { MarketOrderRequest } from "../broker/port";
import { conversionRate, midsOf } from "../conversion";
import type { Decision } from "../engine/decide";
import { AI_TRADE_TAG } from "./exits";

/**
 * The order request for an "open" decision; `clientId` is the order's and the trade's client id
 * (idempotency: the broker refuses a second order with the same id).
 * @throws Error when the decision is not an "open" with units, stop loss and take profit
 */
export function marketOrderFor(decision: Decision, clientId: string): MarketOrderRequest {
  if (decision.action !== "open" || !decision.units || !decision.stopLoss || !decision.takeProfit) {
    throw new Error(`Decisão ${decision.id} não é uma abertura completa`);
  }
  const ext = { id: clientId, tag: AI_TRADE_TAG, comment: `IA ${decision.timeframe}` };
  return {
    instrument: decision.instrument,
    units: decision.units,
    stopLossOnFill: { price: decision.stopLoss },
    takeProfitOnFill: { price: decision.takeProfit },
    ...(decision.trailingStopDistance ? { trailingStopLossOnFill: { distance: decision.trailingStopDistance } } : {}),
    clientExtensions: ext,
    tradeClientExtensions: ext,
  };
}

/**
 * Account-currency value of one unit of the pair's quote currency, from the tick's mid prices,
 * when derivable (quote = account currency → "1"; else the quote/account pair, direct or inverse,
 * else through USD for crosses: core/conversion.ts). Decimal string; undefined when no price links
 * the two currencies.
 */
export function quoteToAccountRate(
  quoteCurrency: string,
  accountCurrency: string,
  prices: readonly { instrument: string; bid: string; ask: string }[],
): string | undefined {
  if (quoteCurrency === accountCurrency) return "1";
  return conversionRate(quoteCurrency, accountCurrency, midsOf(prices))?.toString();
}

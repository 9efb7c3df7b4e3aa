/**
 * An account's figures at current prices from a stored read (issue 13, ADR 0025): the balance and
 * the open trades only change through transactions (fills, closes, financing, transfers), so a tick
 * that saw no transaction since the stored read keeps them and recomputes only what moves with
 * prices — each open trade's unrealized P&L and margin, and the account's unrealizedPL, NAV,
 * marginUsed and marginAvailable.
 *
 * Rules (OANDA's, as the simulator implements them: core/simulator/accounts.ts): a trade's
 * unrealized P&L is valued at the price that would close it (bid for a long, ask for a short)
 * converted quote → account currency at mid (core/conversion.ts), rounded to 4 decimals per trade;
 * its margin = |units| × mid × rate(quote → account) × the instrument's margin rate; NAV = balance +
 * Σ unrealized; marginAvailable = max(0, NAV − marginUsed). Decimals only; money as 4-decimal
 * strings. Approximation: the mid is the quote's (bid+ask)/2 at displayPrecision where the broker
 * may use an unrounded mid — a difference far below a cent on the NAV (ADR 0025).
 */
import type { AccountSummary, ClientPrice, Trade } from "../broker/port";
import { conversionInstruments, conversionRate, midsOf } from "../conversion";
import { Decimal, formatMoney } from "../decimal";
import { instrumentSpec, SUPPORTED_INSTRUMENTS } from "../instruments";

/**
 * The instruments whose quotes `markToMarket` needs for `trades` on an account in `currency`: the
 * trades' instruments and the pairs converting their quote currencies (limited to `offered`).
 */
export function markInstruments(trades: readonly Pick<Trade, "instrument">[], currency: string, offered: readonly string[] = SUPPORTED_INSTRUMENTS): string[] {
  const out = new Set<string>();
  for (const t of trades) {
    out.add(t.instrument);
    for (const c of conversionInstruments(instrumentSpec(t.instrument).quote, currency, offered)) out.add(c);
  }
  return [...out];
}

/**
 * `summary` and `trades` (a consistent stored read) valued at `prices`. `marginRates` gives each
 * instrument's margin rate (the broker's instrument list). Undefined when a trade's instrument has
 * no quote, no conversion to the account currency or no margin rate: the caller reads the broker.
 */
export function markToMarket(
  summary: AccountSummary,
  trades: readonly Trade[],
  prices: readonly ClientPrice[],
  marginRates: ReadonlyMap<string, string>,
): { summary: AccountSummary; trades: Trade[] } | undefined {
  const mids = midsOf(prices);
  let upl = new Decimal(0);
  let margin = new Decimal(0);
  const marked: Trade[] = [];
  for (const t of trades) {
    const q = prices.find((p) => p.instrument === t.instrument);
    const mid = mids(t.instrument);
    const conv = conversionRate(instrumentSpec(t.instrument).quote, summary.currency, mids);
    const rate = marginRates.get(t.instrument);
    if (!q || !mid || !conv || rate === undefined) return undefined;
    const units = new Decimal(t.currentUnits);
    const close = new Decimal(units.isNegative() ? q.ask : q.bid);
    const tradeUpl = close.sub(t.price).mul(units).mul(conv).toDecimalPlaces(4);
    const tradeMargin = units.abs().mul(mid).mul(conv).mul(rate);
    upl = upl.add(tradeUpl);
    margin = margin.add(tradeMargin);
    marked.push({ ...t, unrealizedPL: formatMoney(tradeUpl), marginUsed: formatMoney(tradeMargin) });
  }
  const nav = new Decimal(summary.balance).add(upl);
  return {
    summary: {
      ...summary,
      unrealizedPL: formatMoney(upl),
      NAV: formatMoney(nav),
      marginUsed: formatMoney(margin),
      marginAvailable: formatMoney(Decimal.max(0, nav.sub(margin))),
    },
    trades: marked,
  };
}

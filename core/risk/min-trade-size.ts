/**
 * The broker's minimum trade size (issue 22, broker-rule check): a pair the account's rules mark
 * skipped (core/broker/account-rules.ts: its minimumTradeSize is above the units the 1 % risk gives on
 * this balance) opens no trade; the broker would refuse an order below its minimum (OANDA
 * minimumTradeSize, oanda/PROTOCOL.md §6). Waits, does not stop the bot: the next check (a larger
 * balance, a lower minimum) may lift it.
 */
import { msg } from "../i18n/message";
import { withText } from "./rules";
import type { RiskRule, RiskVerdict } from "./types";

/**
 * The blocking verdict for a pair the account's rules skip (`skip`: the broker's minimum and the
 * risk's units), or null when they do not.
 */
export function minimumSizeVerdict(instrument: string, skip: { minimum: string; units: string } | undefined): RiskVerdict | null {
  if (!skip) return null;
  return withText({
    allowed: false,
    code: "minimum_trade_size",
    reasonMsg: msg("broker-rules:gate.minimumSize", { instrument, minimum: skip.minimum, units: skip.units }),
  });
}

/** The gate's protection: blocks the entry when the context says the pair's minimum size is above the risk's units. */
export const minimumTradeSizeRule: RiskRule = (ctx) => minimumSizeVerdict(ctx.instrument, ctx.minimumSizeAboveRisk);

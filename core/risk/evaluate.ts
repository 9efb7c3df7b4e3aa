/**
 * The risk gate (DESIGN.md §3 step 3): runs the protections in a fixed order and returns the first
 * that blocks. Pure: `now` and every counter are passed in. Issue 7 adds the user's trading hours and
 * the weekend guard right after "market open".
 */
import { msg } from "../i18n/message";
import {
  brokerRule,
  consecutiveLossesRule,
  cooldownRule,
  dailyLossRule,
  licenceRule,
  marketOpenRule,
  maxDailyTradesRule,
  maxDrawdownRule,
  maxTradesRule,
  newsBlackoutRule,
  spreadRule,
  tradingHoursRule,
  weekendRule,
  withText,
} from "./rules";
import { minimumTradeSizeRule } from "./min-trade-size";
import type { RiskContext, RiskRule, RiskVerdict } from "./types";

/** The protections in evaluation order (DESIGN.md §3 step 3). */
export const RISK_RULES: readonly { name: string; rule: RiskRule }[] = [
  { name: "licence", rule: licenceRule },
  { name: "broker", rule: brokerRule },
  { name: "marketOpen", rule: marketOpenRule },
  { name: "tradingHours", rule: tradingHoursRule },
  { name: "weekend", rule: weekendRule },
  { name: "newsBlackout", rule: newsBlackoutRule },
  { name: "spread", rule: spreadRule },
  { name: "minimumTradeSize", rule: minimumTradeSizeRule },
  { name: "maxTrades", rule: maxTradesRule },
  { name: "maxDailyTrades", rule: maxDailyTradesRule },
  { name: "dailyLossLimit", rule: dailyLossRule },
  { name: "maxDrawdown", rule: maxDrawdownRule },
  { name: "cooldown", rule: cooldownRule },
  { name: "consecutiveLosses", rule: consecutiveLossesRule },
];

/** Whether a new trade may be opened now; the first blocking rule wins. Never throws on valid decimals. */
export function evaluateRisk(ctx: RiskContext): RiskVerdict {
  for (const { rule } of RISK_RULES) {
    const v = rule(ctx);
    if (v) return v;
  }
  return withText({ allowed: true, code: "ok", reasonMsg: msg("risk:allowed") });
}

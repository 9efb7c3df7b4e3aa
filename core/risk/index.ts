/** Risk gate public API: evaluateRisk, the rules, spread limits and the trading-day boundary. */
export { evaluateRisk, RISK_RULES } from "./evaluate";
export { MAX_CONSECUTIVE_LOSSES } from "./rules";
export { DEFAULT_MAX_SPREAD_PIPS, MAX_SPREAD_PIPS, maxSpreadPips, spreadInPips } from "./spread";
export { DEFAULT_TIMEZONE, nextTradingDayStart, tradingDayStart } from "./trading-day";
export type { RiskContext, RiskRule, RiskVerdict, StopBotReason } from "./types";

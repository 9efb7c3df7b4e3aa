/** Risk gate public API: evaluateRisk, the rules, spread limits, the trading-day boundary and the time windows. */
export { evaluateRisk, RISK_RULES } from "./evaluate";
export {
  FX_WEEK_CLOSE,
  FX_WEEK_OPEN,
  FX_WEEK_TIMEZONE,
  fxWeekClose,
  isFxWeekendClosed,
  localClock,
  marketCloseWindow,
  withinTradingHours,
  type MarketCloseWindow,
} from "./market-hours";
export { MAX_CONSECUTIVE_LOSSES, manageOnlyMsg, manageOnlyVerdict } from "./rules";
export { DEFAULT_MAX_SPREAD_PIPS, MAX_SPREAD_PIPS, maxSpreadPips, spreadInPips } from "./spread";
export { assertTimezone, DEFAULT_TIMEZONE, knownTimezone, localDate, localInstant, localMidnight, nextTradingDayStart, resolveTimezone, tradingDay, tradingDayStart, TRADING_DAY_BOUNDARIES, type TradingDay, type TradingDayBoundary } from "./trading-day";
export type { ManageOnlyReason, RiskContext, RiskRule, RiskVerdict, StopBotReason } from "./types";

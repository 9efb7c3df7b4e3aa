/** Engine public API: decide (batch), DecisionEngine (streaming) and the pipeline steps. */
export { CHOP_TP_FACTOR, decide, decisionId, DecisionEngine, featureConfig, MAX_STALE_CANDLES, MIN_CONFIDENCE } from "./decide";
export type { CandlesByTimeframe, Decision, EngineInput, StreamInput } from "./decide";
export { computeFeatures, FeatureTracker, MIN_CANDLES } from "./features";
export type { FeatureConfig, Features } from "./features";
export { classifyRegime, pickTimeframe, regimeTimeframe, STYLE_TIMEFRAMES } from "./regime";
export { computeSignal } from "./signal";
export { computeStops } from "./stops";
export { computeUnits, quoteToAccount, RISK_PER_TRADE_PCT } from "./sizing";

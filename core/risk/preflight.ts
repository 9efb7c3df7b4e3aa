/**
 * Pre-flight check before ATIVAR IA (issue 12): what the current settings can cost, in the account
 * currency, before the bot runs. Pure; money in Decimal (core/decimal.ts), returned as strings at
 * 2 decimals (rounded up for losses and margin: the figures are ceilings).
 *
 * Rules and their sources:
 * - Stop distance (core/engine/stops.ts): SL = ATR(14) × slRatio of the timeframe the AI trades,
 *   never below MIN_STOP_PIPS. The timeframes a style may pick are its ladder (core/engine/regime.ts
 *   STYLE_TIMEFRAMES; the manual timeframe when auto selection is off); the widest stop is taken on
 *   the slowest of them. ATR is the market's, so the check assumes REFERENCE_ATR_PIPS: about the
 *   99th percentile of ATR(14) over the shipped EUR_USD, GBP_USD and USD_JPY candles
 *   (2026-01-04 → 2026-04-03, data/), rounded up, for every pair (stated in ADR 0021).
 * - Size (core/engine/sizing.ts): automatic = RISK_PER_TRADE_PCT of the balance over the stop,
 *   capped at L × balance of notional, L = the user's maxLeveragePerTrade within the pair's broker
 *   limit (sizing.ts effectiveLeverage, with the broker's margin rate when given); fixed = fixedLot ×
 *   100 000 units, refused by the bot when above that cap. Worst-case loss per trade = units × stop × quote→account rate;
 *   automatic sizing keeps it at the risk % (less when the cap binds). The largest position (for the
 *   margin) is the cap in automatic mode (a tight stop), the fixed units otherwise.
 * - Real risk (issue 21, ADR 0034): the cap binds when the stop is short, so automatic sizing risks
 *   min(1 %, L × stop / price) of the balance. Shown at the reference stop and at a typical stop:
 *   TYPICAL_ATR_PIPS × slRatio on the timeframe the style usually trades (the middle of its ladder,
 *   or the manual one), TYPICAL_ATR_PIPS being the median ATR(14) over the same shipped candles.
 * - Conversion (core/conversion.ts): mid prices; 1/price when the base is the account currency.
 * - Margin (OANDA, oanda/PROTOCOL.md §6): units × price × rate × marginRate (the instrument's, or
 *   the broker's when given), for the `maxTrades` largest positions (one trade per instrument,
 *   core/risk/rules.ts maxTradesRule).
 * - Per day (core/risk/rules.ts): at most maxDailyTrades trades; new entries stop once the day's loss
 *   reaches dailyLossLimitPct of the balance, but the trades already open still run to their stops,
 *   so the day can lose up to limit + concurrent × worst trade. Worst day = the smaller of
 *   maxDailyTrades × worst trade and that bound (`binding` says which).
 *
 * Warnings (each a translatable message, namespace `preflight`, ADR 0007):
 * - `lossAboveRisk`: a fixed lot whose stop-out loses more than RISK_PER_TRADE_PCT of the balance;
 * - `fixedLotRefused`: a fixed lot above the leverage cap (the bot would refuse every entry);
 * - `marginAboveBalance`: the margin of maxTrades positions exceeds the balance (or the margin
 *   available, when given);
 * - `openRiskAboveDailyLimit`: the open trades together can lose more than the daily loss limit
 *   (the limit cannot protect the day);
 * - `noPrice`: an instrument without a price (its figures are unknown; not counted).
 */
import { conversionRate, midsOf, type PriceQuote } from "../conversion";
import { Decimal } from "../decimal";
import { msg, type Msg } from "../i18n/message";
import { instrumentSpec, pipSize, UNITS_PER_LOT, type Timeframe } from "../instruments";
import { effectiveLeverage, RISK_PER_TRADE_PCT } from "../engine/sizing";
import { MIN_STOP_PIPS } from "../engine/stops";
import { STYLE_TIMEFRAMES } from "../engine/regime";
import { effectiveLotMode, type TradingSettings } from "../settings";

/** Assumed worst ATR(14) per timeframe, in pips (see the module doc for the source). */
export const REFERENCE_ATR_PIPS: Record<Timeframe, number> = { M5: 15, M15: 27, M30: 35, H1: 50 };

/**
 * Typical ATR(14) per timeframe, in pips: the median over the shipped EUR_USD, GBP_USD and USD_JPY
 * candles (2026-01-04 → 2026-04-03, data/; M5 without USD_JPY), rounded to the pip: 4.2, 8.8, 12.8
 * and 18.6 (ADR 0034).
 */
export const TYPICAL_ATR_PIPS: Record<Timeframe, number> = { M5: 4, M15: 9, M30: 13, H1: 19 };

const TF_ORDER: readonly Timeframe[] = ["M5", "M15", "M30", "H1"];

export interface PreflightInput {
  settings: TradingSettings;
  /** Balance in account currency (decimal string). */
  balance: Decimal.Value;
  accountCurrency: string;
  /** Margin available (account currency), when known: the margin warning compares with it. */
  marginAvailable?: Decimal.Value;
  /** The instruments the bot would trade (settings' list, kept to those the broker offers). */
  instruments: readonly string[];
  /** Current quotes of those instruments and of the conversion pairs. */
  prices: readonly PriceQuote[];
  /** Broker margin rates per instrument (GET A/instruments), preferred over the table's. */
  marginRates?: Readonly<Record<string, string>>;
}

export interface PreflightInstrument {
  instrument: string;
  /** The timeframe whose stop is the widest, and the assumed stop in pips. */
  timeframe: Timeframe;
  stopPips: number;
  /** Largest position the bot may open (units) and the loss if it stops out (account currency). */
  units: string;
  lossPerTrade: string;
  /** Loss per trade as % of the balance. */
  lossPct: string;
  /** Margin of that position (account currency). */
  margin: string;
  /** Quote → account currency rate used. */
  rate: string;
  /** The bot would refuse every entry (fixed lot above the leverage cap). */
  refused: boolean;
  /** Leverage cap used for this pair: maxLeveragePerTrade within the broker's limit (× balance). */
  maxLeverage: number;
  /** The largest lot that cap allows on this balance (lots, 2 decimals, rounded down). */
  maxLots: string;
  /** The typical stop in pips and what one trade loses on it (account currency, % of the balance). */
  typicalStopPips: number;
  typicalLoss: string;
  typicalLossPct: string;
  /** True when the leverage cap keeps that loss below the risk % (automatic sizing). */
  typicalCapped: boolean;
  /** True when the cap keeps the loss at the reference stop below the risk %. */
  capped: boolean;
}

/** The real risk of one trade at the typical stop (the pair where it is highest). */
export interface PreflightRealRisk {
  instrument: string;
  timeframe: Timeframe;
  stopPips: number;
  /** Account currency and % of the balance. */
  amount: string;
  pct: string;
  /** The leverage cap binds (the real risk is below riskPct), and that cap (× balance). */
  capped: boolean;
  maxLeverage: number;
}

export interface PreflightWarning {
  code: "lossAboveRisk" | "fixedLotRefused" | "marginAboveBalance" | "openRiskAboveDailyLimit" | "noPrice";
  instrument?: string;
  message: Msg;
}

export interface PreflightResult {
  accountCurrency: string;
  balance: string;
  lotMode: "auto" | "fixed";
  /** The fixed lot setting (lots; used when lotMode is fixed). */
  fixedLot: number;
  /** Risk per trade the user chose (automatic sizing's %), and that amount. */
  riskPct: number;
  riskAmount: string;
  /** The maxLeveragePerTrade setting (× balance of notional per trade). */
  maxLeveragePerTrade: number;
  /** Real risk per trade at the typical stop (null without a priced, accepted pair). */
  realRisk: PreflightRealRisk | null;
  /** Every priced pair is refused (fixed lot above the cap): no trade would open. */
  allRefused: boolean;
  instruments: PreflightInstrument[];
  /** Instruments without a price (no figures). */
  unpriced: string[];
  /** Worst-case loss of one trade over the instruments. */
  worstTradeLoss: string;
  /** Trades open at once: min(maxTrades, instruments). */
  concurrent: number;
  /** Margin of the `concurrent` largest positions, and as % of the balance. */
  marginNeeded: string;
  marginPct: string;
  /** Daily loss limit in account currency. */
  dailyLossLimit: string;
  /** Worst-case loss in one day, which rule bounds it, and as % of the balance. */
  worstDayLoss: string;
  worstDayPct: string;
  binding: "maxDailyTrades" | "dailyLossLimit";
  warnings: PreflightWarning[];
}

const money = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_UP).toFixed(2);
const pct = (part: Decimal, whole: Decimal) => (whole.gt(0) ? part.div(whole).mul(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2) : "0.00");

/** The timeframes the AI may trade for these settings (its style's ladder, or the manual one). */
export function tradableTimeframes(settings: Pick<TradingSettings, "timeframe" | "aiSettings">): Timeframe[] {
  const ladder = STYLE_TIMEFRAMES[settings.aiSettings.tradingStyle];
  if (!settings.aiSettings.autoTimeframeSelection) return [settings.timeframe ?? ladder[1]];
  return [...new Set(ladder)];
}

/** The widest stop the strategy places for these settings: timeframe and pips (≥ MIN_STOP_PIPS). */
export function widestStop(settings: Pick<TradingSettings, "timeframe" | "aiSettings" | "slRatio">): { timeframe: Timeframe; pips: number } {
  const tfs = tradableTimeframes(settings);
  const timeframe = tfs.reduce((a, b) => (TF_ORDER.indexOf(b) > TF_ORDER.indexOf(a) ? b : a));
  const pips = Math.max(MIN_STOP_PIPS, new Decimal(REFERENCE_ATR_PIPS[timeframe]).mul(settings.slRatio).toDecimalPlaces(1, Decimal.ROUND_UP).toNumber());
  return { timeframe, pips };
}

/**
 * The stop the strategy usually places for these settings: TYPICAL_ATR_PIPS × slRatio (≥ MIN_STOP_PIPS)
 * on the timeframe the style picks in a normal market (the middle of its ladder), or the manual one.
 */
export function typicalStop(settings: Pick<TradingSettings, "timeframe" | "aiSettings" | "slRatio">): { timeframe: Timeframe; pips: number } {
  const timeframe = settings.aiSettings.autoTimeframeSelection ? STYLE_TIMEFRAMES[settings.aiSettings.tradingStyle][1] : (settings.timeframe ?? STYLE_TIMEFRAMES[settings.aiSettings.tradingStyle][1]);
  const pips = Math.max(MIN_STOP_PIPS, new Decimal(TYPICAL_ATR_PIPS[timeframe]).mul(settings.slRatio).toDecimalPlaces(1, Decimal.ROUND_HALF_UP).toNumber());
  return { timeframe, pips };
}

/**
 * The pre-flight figures and warnings for the settings on this balance. Never throws for market
 * reasons (an instrument without a price or a conversion rate is listed in `unpriced` with a warning).
 */
export function preflight(input: PreflightInput): PreflightResult {
  const { settings, accountCurrency } = input;
  const balance = new Decimal(input.balance);
  const mode = effectiveLotMode(settings);
  const riskAmount = balance.mul(RISK_PER_TRADE_PCT).div(100);
  const mids = midsOf(input.prices);
  const stop = widestStop(settings);
  const typical = typicalStop(settings);
  let realRisk: PreflightRealRisk | null = null;
  const warnings: PreflightWarning[] = [];
  const rows: PreflightInstrument[] = [];
  const unpriced: string[] = [];
  const margins: Decimal[] = [];
  const losses: Decimal[] = [];

  for (const instrument of input.instruments) {
    const spec = instrumentSpec(instrument);
    const price = mids(instrument);
    const rate = price ? conversionRate(spec.quote, accountCurrency, mids) : undefined;
    if (!price || !rate) {
      unpriced.push(instrument);
      warnings.push({ code: "noPrice", instrument, message: msg("preflight:warning.noPrice", { instrument }) });
      continue;
    }
    const stopDistance = pipSize(instrument).mul(stop.pips);
    const perUnitLoss = stopDistance.mul(rate);
    const notionalPerUnit = price.mul(rate);
    const marginRate = new Decimal(input.marginRates?.[instrument] ?? spec.marginRate);
    const leverage = effectiveLeverage(settings.maxLeveragePerTrade, marginRate);
    // Rounded to 1e-6 before flooring, as in sizing: 1/150 × 150 may carry a last-digit artefact.
    const cap = balance.mul(leverage).div(notionalPerUnit).toDecimalPlaces(6).floor();
    const typicalPerUnitLoss = pipSize(instrument).mul(typical.pips).mul(rate);
    let units: Decimal;
    let loss: Decimal;
    let typicalLoss: Decimal;
    let refused = false;
    let capped = false;
    let typicalCapped = false;
    if (mode === "fixed") {
      units = new Decimal(settings.fixedLot).mul(UNITS_PER_LOT).floor();
      loss = units.mul(perUnitLoss);
      typicalLoss = units.mul(typicalPerUnitLoss);
      refused = units.gt(cap);
    } else {
      // At the widest stop: risk / (stop × rate) units, within the cap; a tighter stop gives more
      // units (up to the cap) for the same or a smaller loss, so the largest position is the cap.
      const atStop = riskAmount.div(perUnitLoss).toDecimalPlaces(6).floor();
      loss = Decimal.min(atStop, cap).mul(perUnitLoss);
      capped = cap.lt(atStop);
      const atTypical = riskAmount.div(typicalPerUnitLoss).toDecimalPlaces(6).floor();
      typicalLoss = Decimal.min(atTypical, cap).mul(typicalPerUnitLoss);
      typicalCapped = cap.lt(atTypical);
      units = cap;
    }
    const margin = units.mul(notionalPerUnit).mul(marginRate);
    const maxLots = Decimal.max(cap, 0).div(UNITS_PER_LOT).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(2);
    rows.push({
      instrument,
      timeframe: stop.timeframe,
      stopPips: stop.pips,
      units: units.toFixed(0),
      lossPerTrade: money(loss),
      lossPct: pct(loss, balance),
      margin: money(margin),
      rate: rate.toSignificantDigits(8).toString(),
      refused,
      maxLeverage: leverage,
      maxLots,
      typicalStopPips: typical.pips,
      typicalLoss: money(typicalLoss),
      typicalLossPct: pct(typicalLoss, balance),
      typicalCapped,
      capped,
    });
    if (!refused && (realRisk === null || typicalLoss.gt(realRisk.amount))) {
      realRisk = { instrument, timeframe: typical.timeframe, stopPips: typical.pips, amount: money(typicalLoss), pct: pct(typicalLoss, balance), capped: typicalCapped, maxLeverage: leverage };
    }
    if (refused) {
      warnings.push({
        code: "fixedLotRefused",
        instrument,
        message: msg("preflight:warning.fixedLotRefused", { instrument, lots: new Decimal(settings.fixedLot).toFixed(2), maxLots }),
      });
      continue;
    }
    margins.push(margin);
    losses.push(loss);
    if (mode === "fixed" && loss.gt(riskAmount)) {
      warnings.push({
        code: "lossAboveRisk",
        instrument,
        message: msg("preflight:warning.lossAboveRisk", { instrument, loss: money(loss), lossPct: pct(loss, balance), riskPct: RISK_PER_TRADE_PCT, currency: accountCurrency, stopPips: stop.pips }),
      });
    }
  }

  const worst = losses.reduce((a, b) => Decimal.max(a, b), new Decimal(0));
  const concurrent = Math.min(settings.maxTrades, losses.length);
  const marginNeeded = [...margins].sort((a, b) => b.cmp(a)).slice(0, concurrent).reduce((a, b) => a.add(b), new Decimal(0));
  const dailyLimit = balance.mul(settings.dailyLossLimitPct).div(100);
  const byTrades = worst.mul(settings.maxDailyTrades);
  const openRisk = worst.mul(concurrent);
  const byLimit = dailyLimit.add(openRisk);
  const binding = byTrades.lte(byLimit) ? "maxDailyTrades" : "dailyLossLimit";
  const worstDay = Decimal.min(byTrades, byLimit);

  const available = input.marginAvailable !== undefined ? new Decimal(input.marginAvailable) : balance;
  if (concurrent > 0 && marginNeeded.gt(available)) {
    warnings.push({
      code: "marginAboveBalance",
      message: msg(input.marginAvailable !== undefined ? "preflight:warning.marginAboveAvailable" : "preflight:warning.marginAboveBalance", {
        margin: money(marginNeeded),
        available: money(available),
        currency: accountCurrency,
        trades: concurrent,
      }),
    });
  }
  if (openRisk.gt(dailyLimit)) {
    warnings.push({
      code: "openRiskAboveDailyLimit",
      message: msg("preflight:warning.openRiskAboveDailyLimit", { trades: concurrent, loss: money(openRisk), limit: money(dailyLimit), limitPct: settings.dailyLossLimitPct, currency: accountCurrency }),
    });
  }

  return {
    accountCurrency,
    balance: balance.toFixed(2),
    lotMode: mode,
    fixedLot: settings.fixedLot,
    riskPct: RISK_PER_TRADE_PCT,
    riskAmount: money(riskAmount),
    maxLeveragePerTrade: settings.maxLeveragePerTrade,
    realRisk,
    allRefused: rows.length > 0 && rows.every((r) => r.refused),
    instruments: rows,
    unpriced,
    worstTradeLoss: money(worst),
    concurrent,
    marginNeeded: money(marginNeeded),
    marginPct: pct(marginNeeded, balance),
    dailyLossLimit: money(dailyLimit),
    worstDayLoss: money(worstDay),
    worstDayPct: pct(worstDay, balance),
    binding,
    warnings,
  };
}

/** True when the check found something to confirm before starting (any warning but a missing price). */
export function needsConfirmation(result: Pick<PreflightResult, "warnings">): boolean {
  return result.warnings.some((w) => w.code !== "noPrice");
}

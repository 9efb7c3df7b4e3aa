/**
 * The broker-rule check of an account (issue 22, "Broker-rule check at connect"): from the account
 * summary (hedgingEnabled, currency, balance), the instruments it offers (GET A/instruments:
 * minimumTradeSize, marginRate; oanda/PROTOCOL.md §6) and the user's settings, what the AI will and
 * will not do on that account. Pure; money and units in Decimal (core/decimal.ts).
 *
 * Rules and their sources:
 * - Mode: `hedgingEnabled: true` is a hedging account; false or absent a FIFO (netting) account,
 *   OANDA's default and the rule of US accounts (NFA FIFO rule): a new order first reduces the
 *   opposite trades, oldest first, and trades close in the order they opened. The executor never
 *   holds two trades on one instrument (core/risk/rules.ts maxTradesRule counts every open trade of
 *   the account, ours or not), so on a FIFO account it never holds two opposite trades and the trade
 *   it closes is always the instrument's oldest; on a hedging account it keeps the same rule.
 * - Units per instrument: what the AI would trade on this balance: automatic sizing risks
 *   RISK_PER_TRADE_PCT (1 %) of the balance at the typical stop (core/risk/preflight.ts typicalStop),
 *   within the leverage cap (core/engine/sizing.ts effectiveLeverage with the broker's margin rate);
 *   a fixed lot trades fixedLot × 100 000. Below the instrument's minimumTradeSize the broker would
 *   refuse the order, so the pair is marked `skipped` (the risk gate then refuses it,
 *   core/risk/min-trade-size.ts).
 * - Max leverage: floor(1 / marginRate) (OANDA: margin = notional × marginRate).
 * Lines are translatable messages (namespace `broker-rules`, ADR 0007).
 */
import type { AccountSummary, BrokerInstrument } from "./port";
import { conversionRate, midsOf, type PriceQuote } from "../conversion";
import { Decimal } from "../decimal";
import { msg, type Msg } from "../i18n/message";
import { instrumentSpec, pipSize, UNITS_PER_LOT } from "../instruments";
import { brokerMaxLeverage, effectiveLeverage, RISK_PER_TRADE_PCT } from "../engine/sizing";
import { typicalStop } from "../risk/preflight";
import { effectiveLotMode, resolveInstruments, type TradingSettings } from "../settings";

export type AccountMode = "hedging" | "fifo";

/** The verdict on one instrument the user's settings ask for. */
export interface InstrumentRule {
  instrument: string;
  /** The account offers it (GET A/instruments). */
  offered: boolean;
  /** The broker's minimum order size (units), when offered. */
  minimumTradeSize: string | null;
  /** Units the AI would trade on this balance (see module doc); null when not offered or unpriced. */
  units: string | null;
  /** The AI does not trade it: minimum size above the units the risk (or the fixed lot) gives. */
  skipped: boolean;
  /** The broker's margin rate and the leverage it allows (floor(1 / marginRate)), when offered. */
  marginRate: string | null;
  maxLeverage: number | null;
}

/** A line of what the AI will or will not do. */
export interface RuleLine {
  kind: "will" | "wont";
  message: Msg;
}

export interface AccountRules {
  mode: AccountMode;
  currency: string;
  /** Balance the check used (account currency, 2 decimals). */
  balance: string;
  riskPct: number;
  lotMode: "auto" | "fixed";
  /** The typical stop the units are sized on, in pips. */
  stopPips: number;
  instruments: InstrumentRule[];
  lines: RuleLine[];
  /** What a trader would notice changing (mode, currency, skipped and unoffered pairs, margin rates): a re-check notifies when it differs. */
  signature: string;
}

export interface AccountRulesInput {
  summary: Pick<AccountSummary, "currency" | "balance" | "hedgingEnabled">;
  /** The instruments the account offers. */
  instruments: readonly Pick<BrokerInstrument, "name" | "minimumTradeSize" | "marginRate">[];
  settings: TradingSettings;
  /** Quotes of the user's pairs and their conversion pairs (an unpriced pair is not judged). */
  prices: readonly PriceQuote[];
}

/**
 * The account's rules for these settings: mode, currency, per-instrument verdict and the lines to
 * show. Never throws for market reasons (an unpriced pair has `units: null` and is not skipped).
 */
export function accountRules(input: AccountRulesInput): AccountRules {
  const { summary, settings } = input;
  const currency = summary.currency;
  const mode: AccountMode = summary.hedgingEnabled === true ? "hedging" : "fifo";
  const balance = new Decimal(summary.balance);
  const lotMode = effectiveLotMode(settings);
  const stop = typicalStop(settings);
  const risk = balance.mul(RISK_PER_TRADE_PCT).div(100);
  const mids = midsOf(input.prices);
  const byName = new Map(input.instruments.map((i) => [i.name, i]));
  const rows: InstrumentRule[] = [];
  const lines: RuleLine[] = [
    { kind: "will", message: msg(mode === "fifo" ? "broker-rules:line.fifo" : "broker-rules:line.hedging") },
    { kind: "will", message: msg("broker-rules:line.currency", { currency }) },
    lotMode === "auto"
      ? { kind: "will", message: msg("broker-rules:line.riskAuto", { riskPct: RISK_PER_TRADE_PCT, amount: risk.toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(2), currency, stopPips: stop.pips }) }
      : { kind: "will", message: msg("broker-rules:line.riskFixed", { lots: new Decimal(settings.fixedLot).toFixed(2) }) },
  ];

  for (const instrument of resolveInstruments(settings)) {
    const offer = byName.get(instrument);
    if (!offer) {
      rows.push({ instrument, offered: false, minimumTradeSize: null, units: null, skipped: false, marginRate: null, maxLeverage: null });
      // '*' means "every supported pair this account offers": an absent one is not news.
      if (settings.instruments !== "*") lines.push({ kind: "wont", message: msg("broker-rules:line.notOffered", { instrument }) });
      continue;
    }
    const minimum = new Decimal(offer.minimumTradeSize || "0");
    const maxLeverage = brokerMaxLeverage(offer.marginRate);
    const units = unitsFor(instrument, settings, lotMode, balance, risk, stop.pips, offer.marginRate, currency, mids);
    const skipped = units !== null && units.lt(minimum);
    rows.push({
      instrument,
      offered: true,
      minimumTradeSize: minimum.toFixed(),
      units: units?.toFixed(0) ?? null,
      skipped,
      marginRate: offer.marginRate,
      maxLeverage: Number.isFinite(maxLeverage) ? maxLeverage : null,
    });
    const params = { instrument, minimum: minimum.toFixed(), units: units?.toFixed(0) ?? "", riskPct: RISK_PER_TRADE_PCT, leverage: Number.isFinite(maxLeverage) ? maxLeverage : "—" };
    if (units === null) lines.push({ kind: "will", message: msg("broker-rules:line.unpriced", params) });
    else if (skipped) lines.push({ kind: "wont", message: msg(lotMode === "auto" ? "broker-rules:line.skippedRisk" : "broker-rules:line.skippedLot", params) });
    else lines.push({ kind: "will", message: msg("broker-rules:line.trades", params) });
  }

  const signature = JSON.stringify({
    mode,
    currency,
    skipped: rows.filter((r) => r.skipped).map((r) => r.instrument),
    notOffered: rows.filter((r) => !r.offered).map((r) => r.instrument),
    marginRates: rows.filter((r) => r.offered).map((r) => `${r.instrument}:${r.marginRate}`),
  });
  return { mode, currency, balance: balance.toFixed(2), riskPct: RISK_PER_TRADE_PCT, lotMode, stopPips: stop.pips, instruments: rows, lines, signature };
}

/** Units the AI would trade (see module doc), or null without the prices to size it. */
function unitsFor(
  instrument: string,
  settings: TradingSettings,
  lotMode: "auto" | "fixed",
  balance: Decimal,
  risk: Decimal,
  stopPips: number,
  marginRate: string,
  currency: string,
  mids: ReturnType<typeof midsOf>,
): Decimal | null {
  if (lotMode === "fixed") return new Decimal(settings.fixedLot).mul(UNITS_PER_LOT).floor();
  const price = mids(instrument);
  const rate = price ? conversionRate(instrumentSpec(instrument).quote, currency, mids) : undefined;
  if (!price || !rate) return null;
  const atStop = risk.div(pipSize(instrument).mul(stopPips).mul(rate)).toDecimalPlaces(6).floor();
  const leverage = effectiveLeverage(settings.maxLeveragePerTrade, marginRate);
  const cap = balance.mul(leverage).div(price.mul(rate)).toDecimalPlaces(6).floor();
  return Decimal.max(Decimal.min(atStop, cap), 0);
}

/** The instruments a stored verdict marks skipped, with the figures the gate's reason shows. */
export function skippedInstruments(rules: Pick<AccountRules, "instruments"> | null | undefined): Record<string, { minimum: string; units: string }> {
  const out: Record<string, { minimum: string; units: string }> = {};
  for (const r of rules?.instruments ?? []) if (r.skipped && r.minimumTradeSize && r.units !== null) out[r.instrument] = { minimum: r.minimumTradeSize, units: r.units };
  return out;
}

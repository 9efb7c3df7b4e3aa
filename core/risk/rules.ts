/**
 * The protections, one small named rule each (freqtrade "protections" style: pure, `now` passed in).
 * Each returns null to pass or a blocking verdict with a Portuguese reason and, when the bot must
 * stop, a PRODUCT.md §4 stop reason. Limits come from the user's settings (PRODUCT.md §3/§5).
 */
import { Decimal } from "../decimal";
import { maxSpreadPips } from "./spread";
import type { RiskRule, RiskVerdict } from "./types";

/** Losses in a row that stop the bot ('Parado por perdas consecutivas', PRODUCT.md §4). Our constant. */
export const MAX_CONSECUTIVE_LOSSES = 4;

function block(code: string, reason: string, stopBot?: RiskVerdict["stopBot"]): RiskVerdict {
  return stopBot ? { allowed: false, code, reason, stopBot } : { allowed: false, code, reason };
}

function pt(n: Decimal.Value, dp = 2): string {
  return new Decimal(n).toFixed(dp).replace(".", ",");
}

/** A licence is required to trade (PRODUCT.md §4 licence validity). Stops the bot. */
export const licenceRule: RiskRule = (ctx) =>
  ctx.licenceValid ? null : block("licence_invalid", "Licença inválida ou expirada: assine para continuar operando", "licence");

/** The broker connection must be up. Stops the bot. */
export const brokerRule: RiskRule = (ctx) =>
  ctx.brokerConnected ? null : block("broker_disconnected", "Corretora desconectada: reconecte sua conta Oanda", "broker");

/** The market must be open (price tradeable). Waits, does not stop the bot. */
export const marketOpenRule: RiskRule = (ctx) =>
  ctx.priceTradeable ? null : block("market_closed", `Mercado fechado para ${ctx.instrument}`);

/** No new trade inside a news blackout window (settings.aiSettings.news). */
export const newsBlackoutRule: RiskRule = (ctx) => {
  if (!ctx.settings.aiSettings.news.enabled || !ctx.newsBlackout?.active) return null;
  const ev = ctx.newsBlackout.event ? `: ${ctx.newsBlackout.event}` : "";
  return block("news_blackout", `Pausa por notícia de alto impacto${ev}`);
};

/** Spread guard: the spread must not exceed the instrument's limit (spread.ts). */
export const spreadRule: RiskRule = (ctx) => {
  const max = ctx.maxSpreadPips ?? maxSpreadPips(ctx.instrument);
  if (Number.isFinite(ctx.spreadPips) && ctx.spreadPips <= max) return null;
  return block("spread_too_wide", `Spread de ${pt(ctx.spreadPips, 1)} pips acima do máximo de ${pt(max, 1)} pips para ${ctx.instrument}`);
};

/** At most settings.maxTrades open trades, and one per instrument. */
export const maxTradesRule: RiskRule = (ctx) => {
  if (ctx.openTrades >= ctx.settings.maxTrades) {
    return block("max_trades", `Limite de ${ctx.settings.maxTrades} trades simultâneos atingido (${ctx.openTrades} abertos)`);
  }
  if (ctx.openTradesOnInstrument > 0) return block("instrument_busy", `Já existe um trade aberto em ${ctx.instrument}`);
  return null;
};

/** At most settings.maxDailyTrades trades per trading day (tradingDayStart). */
export const maxDailyTradesRule: RiskRule = (ctx) =>
  ctx.tradesToday < ctx.settings.maxDailyTrades
    ? null
    : block("max_daily_trades", `Limite diário de ${ctx.settings.maxDailyTrades} trades atingido`);

/** Realized loss today ≥ dailyLossLimitPct % of the day-start balance stops the bot. */
export const dailyLossRule: RiskRule = (ctx) => {
  const start = new Decimal(ctx.dayStartBalance);
  const loss = new Decimal(ctx.realizedPLToday).neg();
  if (!start.gt(0) || loss.lte(0)) return null;
  const pct = loss.div(start).mul(100);
  if (pct.lt(ctx.settings.dailyLossLimitPct)) return null;
  return block("daily_loss_limit", `Limite diário de perdas atingido: ${pt(pct)}% (máximo ${pt(ctx.settings.dailyLossLimitPct, 1)}%)`, "daily_loss_limit");
};

/** Drawdown from the high-water mark ≥ maxDrawdownPct % stops the bot. */
export const maxDrawdownRule: RiskRule = (ctx) => {
  const peak = new Decimal(ctx.peakBalance);
  const dd = peak.sub(ctx.balance);
  if (!peak.gt(0) || dd.lte(0)) return null;
  const pct = dd.div(peak).mul(100);
  if (pct.lt(ctx.settings.maxDrawdownPct)) return null;
  return block("max_drawdown", `Drawdown máximo atingido: ${pt(pct)}% (máximo ${pt(ctx.settings.maxDrawdownPct, 1)}%)`, "max_drawdown");
};

/** At least cooldownSec seconds between two trades (settings.aiSettings.cooldownSec). */
export const cooldownRule: RiskRule = (ctx) => {
  if (!ctx.lastTradeAt) return null;
  const cd = ctx.settings.aiSettings.cooldownSec;
  const elapsed = (ctx.now.getTime() - ctx.lastTradeAt.getTime()) / 1000;
  if (elapsed >= cd) return null;
  return block("cooldown", `Aguardando intervalo entre trades: ${Math.ceil(cd - elapsed)} s restantes de ${cd} s`);
};

/** MAX_CONSECUTIVE_LOSSES losses in a row stop the bot. */
export const consecutiveLossesRule: RiskRule = (ctx) =>
  ctx.consecutiveLosses < MAX_CONSECUTIVE_LOSSES
    ? null
    : block("max_consecutive_losses", `${ctx.consecutiveLosses} perdas consecutivas (máximo ${MAX_CONSECUTIVE_LOSSES})`, "max_consecutive_losses");

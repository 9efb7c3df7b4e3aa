import { describe, expect, it } from "vitest";
import { renderMsg } from "../../../core/i18n";
import { evaluateRisk, manageOnlyMsg, manageOnlyVerdict, MAX_CONSECUTIVE_LOSSES, maxSpreadPips, RISK_RULES, spreadInPips } from "../../../core/risk";
import type { RiskContext } from "../../../core/risk";
import { defaultSettings } from "../../../core/settings";
import { NOW, riskContext } from "./context";

const ctx = riskContext;
/** Friday 2026-01-09 16:00 New York (EST): one hour before the weekly close (22:00Z). */
const FRIDAY_1600_NY = new Date("2026-01-09T21:00:00Z");
const SATURDAY = new Date("2026-01-10T15:00:00Z");

function withHours(start: string, end: string, days = [1, 2, 3, 4, 5]) {
  const s = defaultSettings();
  s.tradingHours = { enabled: true, start, end, days };
  return s;
}
function withUnrealized() {
  const s = defaultSettings();
  s.dailyLossIncludesUnrealized = true;
  return s;
}

describe("evaluateRisk", () => {
  it("allows when every protection passes", () => {
    expect(evaluateRisk(ctx())).toEqual({ allowed: true, code: "ok", reason: "Todas as proteções de risco aprovadas", reasonMsg: { key: "risk:allowed" } });
  });

  it.each<[string, Partial<RiskContext>, string, string, string | undefined]>([
    ["licence", { licenceValid: false }, "licence_invalid", "Licença inválida ou expirada: a IA não abre novas operações; as abertas seguem com stop e alvo", undefined],
    ["broker", { brokerConnected: false }, "broker_disconnected", "Corretora desconectada: reconecte sua conta Oanda", "broker"],
    ["market", { priceTradeable: false }, "market_closed", "Mercado fechado para EUR_USD", undefined],
    ["trading hours", { settings: withHours("09:00", "11:59") }, "trading_hours", "Fora do horário de negociação (09:00–11:59, America/Sao_Paulo)", undefined],
    ["weekend", { now: FRIDAY_1600_NY }, "weekend_close", "Sem novas posições nos 120 min antes do fechamento semanal do mercado (sexta 17:00, Nova York)", undefined],
    ["weekend closed", { now: SATURDAY }, "weekend_close", "Mercado fechado no fim de semana: reabre domingo 17:00 (Nova York)", undefined],
    ["news", { newsBlackout: { active: true, event: "Payroll (USD)" } }, "news_blackout", "Pausa por notícia: Payroll (USD)", undefined],
    ["spread", { spreadPips: 3.5 }, "spread_too_wide", "Spread de 3,5 pips acima do máximo de 3,0 pips para EUR_USD", undefined],
    ["maxTrades", { openTrades: 3 }, "max_trades", "Limite de 3 trades simultâneos atingido (3 abertos)", undefined],
    ["one per instrument", { openTrades: 1, openTradesOnInstrument: 1 }, "instrument_busy", "Já existe um trade aberto em EUR_USD", undefined],
    ["maxDailyTrades", { tradesToday: 15 }, "max_daily_trades", "Limite diário de 15 trades atingido", undefined],
    ["daily loss", { realizedPLToday: "-300", equity: "9700", highWaterMark: "9800" }, "daily_loss_limit", "Limite diário de perdas atingido: 3,00% (máximo 3,0%)", "daily_loss_limit"],
    ["daily loss with unrealized", { settings: withUnrealized(), realizedPLToday: "-200", unrealizedPL: "-150" }, "daily_loss_limit", "Limite diário de perdas atingido com o P&L não realizado: 3,50% (máximo 3,0%)", "daily_loss_limit"],
    ["drawdown", { equity: "9500", highWaterMark: "10000" }, "max_drawdown", "Drawdown máximo atingido: 5,00% (máximo 5,0%)", "max_drawdown"],
    ["cooldown", { lastTradeAt: new Date(NOW.getTime() - 25_000) }, "cooldown", "Aguardando intervalo entre trades: 35 s restantes de 60 s", undefined],
    ["consecutive losses", { consecutiveLosses: MAX_CONSECUTIVE_LOSSES }, "max_consecutive_losses", "4 perdas consecutivas (máximo 4)", "max_consecutive_losses"],
  ])("%s trips with its Portuguese reason", (_name, over, code, reason, stopBot) => {
    const v = evaluateRisk(ctx(over));
    expect(v.allowed).toBe(false);
    expect(v.code).toBe(code);
    expect(v.reason).toBe(reason);
    expect(renderMsg(v.reasonMsg)).toBe(reason);
    expect(v.stopBot).toBe(stopBot);
  });

  it("a lapsed licence blocks entries without stopping the bot: the verdict turns the bot manage-only", () => {
    const v = evaluateRisk(ctx({ licenceValid: false }));
    expect(v).toMatchObject({ allowed: false, code: "licence_invalid", manageOnly: "licence" });
    expect(v.stopBot).toBeUndefined();
    const gate = manageOnlyVerdict(false)!;
    expect(gate).toMatchObject({ allowed: false, code: "licence_invalid", manageOnly: "licence", reasonMsg: { key: "risk:licenceInvalid" } });
    expect(gate.reason).toBe(v.reason);
    expect(manageOnlyVerdict(true)).toBeNull();
    expect(manageOnlyMsg("licence")).toEqual({ key: "risk:licenceInvalid" });
    expect(renderMsg(manageOnlyMsg("licence"), "en")).toBe("Invalid or expired licence: the AI opens no new trades; open trades keep their stop loss and take profit");
    expect(renderMsg(manageOnlyMsg("licence"), "es")).toBe("Licencia inválida o vencida: la IA no abre nuevas operaciones; las abiertas siguen con su stop y objetivo");
    // Every other verdict leaves manage-only unset.
    expect(evaluateRisk(ctx({ consecutiveLosses: MAX_CONSECUTIVE_LOSSES })).manageOnly).toBeUndefined();
  });

  it("just below each limit passes", () => {
    expect(evaluateRisk(ctx({ spreadPips: 3 })).allowed).toBe(true);
    expect(evaluateRisk(ctx({ tradesToday: 14, openTrades: 2 })).allowed).toBe(true);
    expect(evaluateRisk(ctx({ realizedPLToday: "-299.99" })).allowed).toBe(true);
    expect(evaluateRisk(ctx({ equity: "9500.01" })).allowed).toBe(true);
    expect(evaluateRisk(ctx({ lastTradeAt: new Date(NOW.getTime() - 60_000) })).allowed).toBe(true);
    expect(evaluateRisk(ctx({ consecutiveLosses: 3 })).allowed).toBe(true);
    // news blackout ignored when news filtering is off
    const s = defaultSettings();
    s.aiSettings.news.enabled = false;
    expect(evaluateRisk(ctx({ settings: s, newsBlackout: { active: true } })).allowed).toBe(true);
  });

  it("checks in the fixed order (trading hours and weekend right after market open)", () => {
    expect(RISK_RULES.map((r) => r.name)).toEqual([
      "licence", "broker", "marketOpen", "tradingHours", "weekend", "newsBlackout", "spread", "minimumTradeSize", "maxTrades", "maxDailyTrades", "dailyLossLimit", "maxDrawdown", "cooldown", "consecutiveLosses",
    ]);
    const now = FRIDAY_1600_NY; // 18:00 in São Paulo, inside the 120 min before the weekly close
    const all: Partial<RiskContext> = {
      now, settings: withHours("09:00", "17:00"),
      licenceValid: false, brokerConnected: false, priceTradeable: false, newsBlackout: { active: true }, spreadPips: 9, openTrades: 5,
      tradesToday: 99, realizedPLToday: "-5000", equity: "5000", consecutiveLosses: 9, lastTradeAt: now,
    };
    const expected = ["licence_invalid", "broker_disconnected", "market_closed", "trading_hours", "weekend_close", "news_blackout", "spread_too_wide", "max_trades", "max_daily_trades", "daily_loss_limit", "max_drawdown", "cooldown", "max_consecutive_losses"];
    const c = ctx(all);
    const seen: string[] = [];
    for (let i = 0; i < expected.length; i++) {
      const v = evaluateRisk(c);
      seen.push(v.code);
      // clear the condition that tripped, the next one must show
      if (v.code === "licence_invalid") c.licenceValid = true;
      if (v.code === "broker_disconnected") c.brokerConnected = true;
      if (v.code === "market_closed") c.priceTradeable = true;
      if (v.code === "trading_hours") c.settings.tradingHours.enabled = false;
      if (v.code === "weekend_close") c.settings.weekend.mode = "off";
      if (v.code === "news_blackout") delete c.newsBlackout;
      if (v.code === "spread_too_wide") c.spreadPips = 1;
      if (v.code === "max_trades") c.openTrades = 0;
      if (v.code === "max_daily_trades") c.tradesToday = 0;
      if (v.code === "daily_loss_limit") c.realizedPLToday = "0";
      if (v.code === "max_drawdown") c.equity = "10000";
      if (v.code === "cooldown") delete c.lastTradeAt;
      if (v.code === "max_consecutive_losses") c.consecutiveLosses = 0;
    }
    expect(seen).toEqual(expected);
    expect(evaluateRisk(c).allowed).toBe(true);
  });

  it("spread helpers", () => {
    expect(maxSpreadPips("EUR_USD")).toBe(3);
    expect(maxSpreadPips("AUD_NZD")).toBe(5);
    expect(spreadInPips("USD_JPY", "150.000", "150.015")).toBe(1.5);
    expect(spreadInPips("EUR_USD", "1.10000", "1.10012")).toBe(1.2);
  });
});

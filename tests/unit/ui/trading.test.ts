/** Pure trading-view logic of the subscriber screens: statistics, price chip, hero gating and the i18n labels (PRODUCT.md §4, §9). */
import { describe, expect, it } from "vitest";
import { createI18n } from "../../../app/i18n";
import {
  heroView,
  licenceLabel,
  localDayBounds,
  priceTrend,
  stopReasonKey,
  subscriptionLabel,
  tradeStats,
  winLossCard,
} from "../../../app/lib/trading";
import { localMidnight as zonedMidnight } from "../../../core/risk/trading-day";

const pt = createI18n("pt");
const en = createI18n("en");
const es = createI18n("es");
const tPt = (ns: string, key: string) => pt.t(key, { ns });
const tEn = (ns: string, key: string) => en.t(key, { ns });
const tEs = (ns: string, key: string) => es.t(key, { ns });

describe("tradeStats", () => {
  const now = new Date(2025, 5, 20, 15, 0, 0);
  const at = (h: number, dayOffset = 0) => new Date(2025, 5, 20 + dayOffset, h, 0, 0).toISOString();
  it("win rate, profit factor (gross profit / gross loss), payoff ratio, totals and P&L today by the runtime's local day", () => {
    const s = tradeStats(
      [
        { pnl: "30", closeTime: at(10) },
        { pnl: "10", closeTime: at(1) },
        { pnl: "-10", closeTime: at(23, -1) },
        { pnl: "0", closeTime: at(9) },
      ],
      now,
    );
    expect(s).toMatchObject({ total: 4, winners: 2, losers: 1, pnlTotal: 30, winRate: 50, pnlToday: 40 });
    expect(s.profitFactor).toBe(4); // gross profit 40 / gross loss 10
    expect(s.payoffRatio).toBe(2); // avg win 20 / avg loss 10
  });
  it("profit factor is gross profit over gross loss; the average win over the average loss is the payoff ratio", () => {
    const s = tradeStats([{ pnl: 10 }, { pnl: 10 }, { pnl: 10 }, { pnl: -15 }]);
    expect(s.profitFactor).toBe(2); // 30 / 15
    expect(s.payoffRatio).toBe(0.67); // 10 / 15 = 0.666…, 2 decimals
    expect(s.winRate).toBe(75);
  });
  it("a losing record never shows a profit factor above 1, whatever its payoff ratio", () => {
    // 3 wins of +150, 7 losses of −100: net −250.
    const s = tradeStats([...Array(3).fill({ pnl: "150" }), ...Array(7).fill({ pnl: "-100" })]);
    expect(s).toMatchObject({ total: 10, winners: 3, losers: 7, pnlTotal: -250, winRate: 30 });
    expect(s.profitFactor).toBe(0.64); // 450 / 700
    expect(s.payoffRatio).toBe(1.5); // 150 / 100
  });
  it("empty and one-sided lists", () => {
    expect(tradeStats([], now)).toMatchObject({ total: 0, winRate: null, profitFactor: null, payoffRatio: null, pnlTotal: 0 });
    expect(tradeStats([{ pnl: 5, closeTime: null }], now)).toMatchObject({ profitFactor: null, payoffRatio: null, pnlTotal: 5, pnlToday: 0 });
    expect(tradeStats([{ pnl: -5 }, { pnl: "abc" }], now)).toMatchObject({ total: 2, losers: 1, profitFactor: 0, payoffRatio: null });
  });
  it("P&L today runs from the user's local midnight (preferences.timezone) to the next", () => {
    // 2025-06-20 12:00 UTC = 09:00 in São Paulo, 13:00 in Lisbon.
    const noonUtc = new Date("2025-06-20T12:00:00Z");
    const trades = [
      { pnl: 7, closeTime: "2025-06-20T02:00:00Z" }, // 23:00 on the 19th in São Paulo, 03:00 on the 20th in Lisbon
      { pnl: 5, closeTime: "2025-06-20T04:00:00Z" }, // 01:00 on the 20th in São Paulo
      { pnl: 11, closeTime: "2025-06-21T02:30:00Z" }, // 23:30 on the 20th in São Paulo, next day in Lisbon
    ];
    expect(tradeStats(trades, noonUtc, "America/Sao_Paulo").pnlToday).toBe(16);
    expect(tradeStats(trades, noonUtc, "Europe/Lisbon").pnlToday).toBe(12);
  });
  it("day bounds in a zone: midnight to midnight, 23 or 25 hours across DST", () => {
    const [start, end] = localDayBounds(new Date("2025-06-20T12:00:00Z"), "America/Sao_Paulo");
    expect(start.toISOString()).toBe("2025-06-20T03:00:00.000Z");
    expect(end.toISOString()).toBe("2025-06-21T03:00:00.000Z");
    const [s2, e2] = localDayBounds(new Date("2025-03-30T12:00:00Z"), "Europe/Lisbon"); // spring forward
    expect(s2.toISOString()).toBe("2025-03-30T00:00:00.000Z");
    expect(e2.getTime() - s2.getTime()).toBe(23 * 3_600_000);
    const fallBack = zonedMidnight(2025, 10, 26, "Europe/Lisbon"); // still summer time (UTC+1) at midnight
    expect(fallBack.toISOString()).toBe("2025-10-25T23:00:00.000Z");
    expect(zonedMidnight(2025, 10, 27, "Europe/Lisbon").getTime() - fallBack.getTime()).toBe(25 * 3_600_000);
  });
});

describe("win/loss card shows the larger of wins and losses", () => {
  it("wins when more wins (or a tie), losses when more losses", () => {
    expect(winLossCard({ winners: 3, losers: 1 })).toEqual({ kind: "wins", count: 3 });
    expect(winLossCard({ winners: 1, losers: 4 })).toEqual({ kind: "losses", count: 4 });
    expect(winLossCard({ winners: 2, losers: 2 })).toEqual({ kind: "wins", count: 2 });
  });
});

describe("priceTrend (live price chip)", () => {
  it("buy above entry and sell below entry are favourable; unknown is grey", () => {
    expect(priceTrend("buy", "1.1000", "1.1010")).toBe("up");
    expect(priceTrend("buy", "1.1000", "1.0990")).toBe("down");
    expect(priceTrend("sell", "1.1000", "1.0990")).toBe("up");
    expect(priceTrend("sell", "1.1000", "1.1010")).toBe("down");
    expect(priceTrend("buy", "1.1000", null)).toBe("unknown");
  });
});

describe("heroView gating: offline → no licence → no broker → ready, with the literal §4 copy", () => {
  const base = { online: true, hasLicense: true, brokerConnected: true, botActive: false };
  const text = (v: ReturnType<typeof heroView>) => ({
    state: v.state,
    badge: tPt("hero", v.badgeKey),
    title: tPt("hero", v.titleKey),
    message: tPt("hero", v.messageKey),
    tone: v.tone,
    button: tPt("hero", v.buttonKey),
  });
  it("offline wins over everything", () => {
    expect(text(heroView({ ...base, online: false, hasLicense: false }))).toMatchObject({
      state: "offline",
      badge: "Offline",
      title: "Offline",
      tone: "grey",
      message: "Sem conexão com a internet",
    });
  });
  it("no licence before no broker", () => {
    expect(text(heroView({ ...base, hasLicense: false, brokerConnected: false }))).toMatchObject({
      state: "no-licence",
      badge: "Sem Licença",
      title: "Licença Necessária",
      tone: "amber",
      button: "ASSINAR",
    });
  });
  it("no broker", () => {
    expect(text(heroView({ ...base, brokerConnected: false }))).toMatchObject({ badge: "Conectar Oanda", title: "Conectar Oanda", tone: "orange", button: "CONECTAR OANDA" });
  });
  it("ready: paused or active", () => {
    expect(text(heroView(base))).toMatchObject({ badge: "Online", title: "IA Pausada", tone: "red", button: "ATIVAR IA" });
    expect(text(heroView({ ...base, botActive: true }))).toMatchObject({ badge: "Online", title: "IA Ativa", tone: "green", button: "DESATIVAR IA" });
  });
  it("manage-only: the AI on without a licence (or reported manage-only) says why and turns off", () => {
    const lapsed = heroView({ ...base, hasLicense: false, botActive: true });
    expect(text(lapsed)).toEqual({
      state: "manage-only",
      badge: "Somente gestão",
      title: "Somente Gestão",
      message: "Licença expirada: a IA não abre novas operações; as abertas seguem com stop e alvo.",
      tone: "amber",
      button: "DESATIVAR IA",
    });
    expect(heroView({ ...base, hasLicense: false, botActive: true, manageOnly: true })).toEqual(lapsed);
    // Licence back, the bot still reports manage-only until its next tick.
    expect(text(heroView({ ...base, botActive: true, manageOnly: true }))).toMatchObject({
      state: "manage-only",
      message: "Licença ativa de novo: a IA volta a abrir operações no próximo ciclo.",
    });
    expect(tEn("hero", lapsed.titleKey)).toBe("Manage Only");
    expect(tEn("hero", lapsed.messageKey)).toBe("Licence expired: the AI opens no new trades; open trades keep their stop and target.");
    expect(tEs("hero", lapsed.badgeKey)).toBe("Solo gestión");
    expect(tEs("hero", lapsed.messageKey)).toBe("Licencia vencida: la IA no abre nuevas operaciones; las abiertas siguen con su stop y objetivo.");
    // Offline still wins; with the AI off a lapsed licence is the usual 'Licença Necessária'.
    expect(heroView({ ...base, online: false, hasLicense: false, botActive: true, manageOnly: true }).state).toBe("offline");
    expect(heroView({ ...base, hasLicense: false, botActive: false, manageOnly: true }).state).toBe("no-licence");
  });
  it("English copy for the same keys", () => {
    expect(tEn("hero", heroView(base).titleKey)).toBe("AI Paused");
    expect(tEn("hero", heroView({ ...base, hasLicense: false }).buttonKey)).toBe("SUBSCRIBE");
  });
});

describe("labels (PRODUCT.md §4)", () => {
  it("licence and subscription", () => {
    const lic = (s: string) => tPt("common", licenceLabel(s).key);
    expect(lic("valid")).toBe("Válida");
    expect(lic("expired")).toBe("Expirada");
    expect(lic("pending")).toBe("Processando");
    expect(lic("admin")).toBe("Administrador");
    expect(lic("none")).toBe("Sem licença");
    const sub = (s: string) => tPt("common", subscriptionLabel(s));
    expect(sub("active")).toBe("Ativa");
    expect(sub("past_due")).toBe("Pagamento Pendente");
    expect(sub("canceled")).toBe("Cancelada");
    expect(sub("inactive")).toBe("Inativa");
  });
  it("stop reasons", () => {
    const r = (s: string | null) => tPt("common", stopReasonKey(s));
    expect(r("manual")).toBe("Parado manualmente");
    expect(r("max_consecutive_losses")).toBe("Parado por perdas consecutivas");
    expect(r("daily_loss_limit")).toBe("Parado por limite diário de perdas");
    expect(r("trading_hours")).toBe("Parado fora do horário");
    expect(r("server_shutdown")).toBe("Parado por reinício do servidor");
    expect(r("something_else")).toBe("Inativo");
    expect(r(null)).toBe("Inativo");
    expect(tEn("common", stopReasonKey("manual"))).toBe("Stopped manually");
  });
});

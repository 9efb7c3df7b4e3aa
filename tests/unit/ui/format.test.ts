import { describe, expect, it } from "vitest";
import {
  formatDate,
  formatInstrument,
  formatLots,
  formatMoney,
  formatPercent,
  formatPrice,
  normaliseTimeframe,
  pricePrecision,
  relativeTime,
  toNumber,
} from "../../../app/lib/format";
import { heroView, licenceLabel, priceTrend, subscriptionLabel, tradeStats } from "../../../app/lib/trading";

describe("formatMoney", () => {
  it("formats pt-BR currency with the account currency", () => {
    expect(formatMoney("100000.0000", "USD")).toBe("US$ 100.000,00");
    expect(formatMoney(1234.5, "BRL")).toBe("R$ 1.234,50");
    expect(formatMoney("-12.345", "EUR")).toBe("-€ 12,35");
  });
  it("signs when asked, and shows a dash when unknown", () => {
    expect(formatMoney(5, "USD", { signed: true })).toBe("+US$ 5,00");
    expect(formatMoney(0, "USD", { signed: true })).toBe("US$ 0,00");
    expect(formatMoney(null)).toBe("—");
    expect(formatMoney("abc")).toBe("—");
  });
  it("falls back to USD for a bad currency code", () => {
    expect(formatMoney(1, "??")).toBe("US$ 1,00");
  });
});

describe("lots and prices", () => {
  it("lots = |units| / 100000 with 2 decimals", () => {
    expect(formatLots("10000")).toBe("0.10");
    expect(formatLots(-250000)).toBe("2.50");
    expect(formatLots("1")).toBe("0.00");
    expect(formatLots(null)).toBe("—");
  });
  it("3 decimals for JPY pairs, else 5", () => {
    expect(pricePrecision("USD_JPY")).toBe(3);
    expect(pricePrecision("EUR_USD")).toBe(5);
    expect(formatPrice("USD_JPY", "151.2345")).toBe("151.235");
    expect(formatPrice("EUR_USD", "1.1")).toBe("1.10000");
    expect(formatPrice("EUR_USD", null)).toBe("—");
    expect(formatPrice("EUR_USD", "-1.000005")).toBe("-1.00001");
    expect(formatPrice("EUR_USD", 1.234564999)).toBe("1.23456");
    expect(formatPrice("USD_JPY", "99.9995")).toBe("100.000");
    expect(formatPrice("EUR_USD", "")).toBe("—");
  });
  it("instrument and timeframe labels", () => {
    expect(formatInstrument("GBP_USD")).toBe("GBP/USD");
    expect(normaliseTimeframe("15m")).toBe("M15");
    expect(normaliseTimeframe("1h")).toBe("H1");
    expect(normaliseTimeframe("D")).toBe("D1");
    expect(normaliseTimeframe("M5")).toBe("M5");
    expect(normaliseTimeframe(null)).toBe("—");
  });
  it("percent with 1 decimal, pt-BR", () => {
    expect(formatPercent(62.5)).toBe("62,5%");
    expect(formatPercent(100 / 3)).toBe("33,3%");
    expect(formatPercent(null)).toBe("—");
  });
  it("toNumber", () => {
    expect(toNumber("1.5")).toBe(1.5);
    expect(toNumber("")).toBeNull();
    expect(toNumber(undefined)).toBeNull();
  });
});

describe("relativeTime", () => {
  const now = new Date(2025, 5, 20, 12, 0, 0);
  it("Agora, minutes, hours, days, then dd/mm", () => {
    expect(relativeTime(new Date(now.getTime() - 30_000), now)).toBe("Agora");
    expect(relativeTime(new Date(now.getTime() - 5 * 60_000), now)).toBe("5m");
    expect(relativeTime(new Date(now.getTime() - 3 * 3_600_000), now)).toBe("3h");
    expect(relativeTime(new Date(now.getTime() - 6 * 86_400_000), now)).toBe("6d");
    expect(relativeTime(new Date(2025, 5, 1, 9, 0), now)).toBe("01/06");
  });
  it("handles bad input and future times", () => {
    expect(relativeTime(null, now)).toBe("—");
    expect(relativeTime("not a date", now)).toBe("—");
    expect(relativeTime(new Date(now.getTime() + 60_000), now)).toBe("Agora");
  });
  it("formatDate dd/mm/aaaa", () => {
    expect(formatDate(new Date(2025, 0, 2))).toBe("02/01/2025");
    expect(formatDate(null)).toBe("—");
  });
});

describe("tradeStats", () => {
  const now = new Date(2025, 5, 20, 15, 0, 0);
  const at = (h: number, dayOffset = 0) => new Date(2025, 5, 20 + dayOffset, h, 0, 0).toISOString();
  it("win rate, profit factor (avg win / avg loss), totals and P&L today by the local day", () => {
    const s = tradeStats(
      [
        { pnl: "30", closeTime: at(10) },
        { pnl: "10", closeTime: at(1) },
        { pnl: "-10", closeTime: at(23, -1) },
        { pnl: "0", closeTime: at(9) },
      ],
      now,
    );
    expect(s.total).toBe(4);
    expect(s.winners).toBe(2);
    expect(s.losers).toBe(1);
    expect(s.pnlTotal).toBe(30);
    expect(s.winRate).toBe(50);
    expect(s.profitFactor).toBe(2); // avg win 20 / avg loss 10
    expect(s.pnlToday).toBe(40);
  });
  it("empty and one-sided lists", () => {
    expect(tradeStats([], now)).toMatchObject({ total: 0, winRate: null, profitFactor: null, pnlTotal: 0 });
    expect(tradeStats([{ pnl: 5, closeTime: null }], now).profitFactor).toBeNull();
  });
});

describe("priceTrend", () => {
  it("buy above entry and sell below entry are favourable", () => {
    expect(priceTrend("buy", "1.1000", "1.1010")).toBe("up");
    expect(priceTrend("buy", "1.1000", "1.0990")).toBe("down");
    expect(priceTrend("sell", "1.1000", "1.0990")).toBe("up");
    expect(priceTrend("sell", "1.1000", "1.1010")).toBe("down");
    expect(priceTrend("buy", "1.1000", null)).toBe("unknown");
  });
});

describe("heroView gating: offline → no licence → no broker → ready", () => {
  const base = { online: true, hasLicense: true, brokerConnected: true, botActive: false };
  it("offline wins over everything", () => {
    const v = heroView({ ...base, online: false, hasLicense: false });
    expect(v).toMatchObject({ state: "offline", badge: "Offline", title: "Offline", tone: "grey", message: "Sem conexão com a internet" });
  });
  it("no licence before no broker", () => {
    expect(heroView({ ...base, hasLicense: false, brokerConnected: false })).toMatchObject({
      badge: "Sem Licença",
      title: "Licença Necessária",
      tone: "amber",
      button: "ASSINAR",
    });
  });
  it("no broker", () => {
    expect(heroView({ ...base, brokerConnected: false })).toMatchObject({ badge: "Conectar Oanda", title: "Conectar Oanda", tone: "orange", button: "CONECTAR OANDA" });
  });
  it("ready: paused or active", () => {
    expect(heroView(base)).toMatchObject({ badge: "Online", title: "IA Pausada", tone: "red", button: "ATIVAR IA" });
    expect(heroView({ ...base, botActive: true })).toMatchObject({ badge: "Online", title: "IA Ativa", tone: "green", button: "DESATIVAR IA" });
  });
});

describe("labels", () => {
  it("licence and subscription", () => {
    expect(licenceLabel("valid").label).toBe("Válida");
    expect(licenceLabel("expired").label).toBe("Expirada");
    expect(licenceLabel("pending").label).toBe("Processando");
    expect(licenceLabel("admin").label).toBe("Administrador");
    expect(licenceLabel("none").label).toBe("Sem licença");
    expect(subscriptionLabel("active")).toBe("Ativa");
    expect(subscriptionLabel("past_due")).toBe("Pagamento Pendente");
    expect(subscriptionLabel("canceled")).toBe("Cancelada");
    expect(subscriptionLabel("inactive")).toBe("Inativa");
  });
});

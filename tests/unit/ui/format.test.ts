import { describe, expect, it } from "vitest";
import {
  formatDate,
  formatDateTime,
  formatNumber,
  formatTime,
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
import { knownTimezone as safeTimeZone } from "../../../core/risk/trading-day";

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


describe("locale and time zone (PRODUCT.md §9: the user's language and timezone)", () => {
  const instant = new Date("2025-06-20T02:30:00Z"); // 23:30 on the 19th in São Paulo (UTC−3)
  it("money and percent follow the locale", () => {
    expect(formatMoney(1234.5, "USD", { locale: "en-US" })).toBe("$1,234.50");
    expect(formatMoney(-3, "USD", { locale: "en-US", signed: true })).toBe("-$3.00");
    expect(formatMoney(1234.5, "EUR", { locale: "es-ES" })).toBe("1234,50 €");
    expect(formatPercent(62.5, 1, "en-US")).toBe("62.5%");
    expect(formatNumber(1.5, 2, "pt-BR")).toBe("1,50");
    expect(formatNumber(1.5, 2, "en-US")).toBe("1.50");
    expect(formatNumber(null)).toBe("—");
  });
  it("dates are shown in the user's time zone", () => {
    expect(formatDate(instant, { timeZone: "America/Sao_Paulo" })).toBe("19/06/2025");
    expect(formatDate(instant, { timeZone: "Europe/Lisbon" })).toBe("20/06/2025");
    expect(formatDateTime(instant, { timeZone: "America/Sao_Paulo" })).toBe("19/06/2025 23:30");
    expect(formatDateTime(instant, { locale: "en-US", timeZone: "America/New_York" })).toBe("06/19/2025 10:30 PM");
    expect(formatTime(instant, { timeZone: "Europe/Madrid" })).toBe("04:30");
    expect(formatDateTime(null)).toBe("—");
  });
  it("relative time translates 'Agora' and uses the zone for dd/mm", () => {
    const now = new Date(instant.getTime() + 10 * 86_400_000);
    expect(relativeTime(instant, now, { timeZone: "America/Sao_Paulo" })).toBe("19/06");
    expect(relativeTime(instant, now, { timeZone: "Asia/Tokyo" })).toBe("20/06");
    expect(relativeTime(instant, instant, { justNow: "Now" })).toBe("Now");
  });
  it("a bad time zone falls back instead of throwing", () => {
    expect(safeTimeZone("Not/AZone")).toBeUndefined();
    expect(safeTimeZone("Europe/Lisbon")).toBe("Europe/Lisbon");
    expect(formatDate(instant, { timeZone: "Not/AZone" })).toMatch(/^\d{2}\/06\/2025$/);
  });
});

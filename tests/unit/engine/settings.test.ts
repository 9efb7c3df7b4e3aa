import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, defaultSettings, normaliseLoadedSettings, parseSettingsUpdate, resolveInstruments, tradingSettingsSchema } from "../../../core/settings";

describe("settings defaults (PRODUCT.md §9)", () => {
  it("equal the spec", () => {
    expect(DEFAULT_SETTINGS).toEqual({
      lotMode: "auto",
      fixedLot: 0.01,
      maxLeveragePerTrade: 5,
      maxDailyTrades: 15,
      maxDrawdownPct: 5,
      dailyLossLimitPct: 3,
      tpRatio: 1.5,
      slRatio: 1,
      maxTrades: 3,
      dailyLossIncludesUnrealized: false,
      tradingDayBoundary: "local_midnight",
      tradingHours: { enabled: false, start: "00:00", end: "23:59", days: [1, 2, 3, 4, 5] },
      weekend: { mode: "no_entry", minutesBeforeClose: 120 },
      instruments: "*",
      aiSettings: {
        tradingStyle: "swing",
        edgeOverrides: [],
        cooldownSec: 60,
        autoTimeframeSelection: true,
        indicators: { rsi: true, macd: true, ema: true, bollinger: false, stochastic: false },
        scalper: { enabled: false, maxHoldSec: 180, m1FallbackToM5: true, microAtrPeriod: 10, impulseLookback: 8, impulseThreshold: 0.7, trailWithMicroAtr: true, trailMult: 1.2, reduceTpOnChop: true },
        news: { enabled: true, sensitivity: "medium", impactedOnly: true, blackout: { beforeMin: 5, afterMin: 10 } },
      },
    });
    expect(tradingSettingsSchema.safeParse(DEFAULT_SETTINGS).success).toBe(true);
    expect(resolveInstruments(DEFAULT_SETTINGS)).toEqual(["EUR_USD", "GBP_USD", "USD_JPY", "AUD_USD", "USD_CAD", "USD_CHF", "EUR_GBP", "EUR_JPY"]);
  });
});

describe("parseSettingsUpdate", () => {
  const cur = defaultSettings();
  const bad = (body: unknown) => parseSettingsUpdate(body, cur);

  it.each([
    [{ maxTrades: 21 }, "maxTrades deve estar entre 1 e 20", "maxTrades"],
    [{ maxTrades: 0 }, "maxTrades deve estar entre 1 e 20", "maxTrades"],
    [{ maxTrades: 2.5 }, "maxTrades deve ser um número inteiro", "maxTrades"],
    [{ maxDailyTrades: 101 }, "maxDailyTrades deve estar entre 1 e 100", "maxDailyTrades"],
    [{ fixedLot: 0 }, "fixedLot deve estar entre 0,01 e 100", "fixedLot"],
    [{ fixedLot: 100.01 }, "fixedLot deve estar entre 0,01 e 100", "fixedLot"],
    [{ fixedLot: 0.015 }, "fixedLot deve variar em passos de 0,01", "fixedLot"],
    [{ dailyLossLimitPct: 25 }, "dailyLossLimitPct deve estar entre 0,5 e 20", "dailyLossLimitPct"],
    [{ dailyLossLimitPct: 1.2 }, "dailyLossLimitPct deve variar em passos de 0,5", "dailyLossLimitPct"],
    [{ maxDrawdownPct: 0.5 }, "maxDrawdownPct deve estar entre 1 e 100", "maxDrawdownPct"],
    [{ tpRatio: 5.5 }, "tpRatio deve estar entre 0,5 e 5", "tpRatio"],
    [{ tpRatio: 1.25 }, "tpRatio deve variar em passos de 0,1", "tpRatio"],
    [{ slRatio: 3.1 }, "slRatio deve estar entre 0,5 e 3", "slRatio"],
    [{ aiSettings: { cooldownSec: 7 } }, "cooldownSec deve variar em passos de 5", "aiSettings.cooldownSec"],
    [{ aiSettings: { cooldownSec: 3605 } }, "cooldownSec deve estar entre 0 e 3600", "aiSettings.cooldownSec"],
    [{ aiSettings: { scalper: { maxHoldSec: 0 } } }, "maxHoldSec deve estar entre 5 e 3600", "aiSettings.scalper.maxHoldSec"],
    [{ aiSettings: { scalper: { microAtrPeriod: 1 } } }, "microAtrPeriod deve estar entre 2 e 200", "aiSettings.scalper.microAtrPeriod"],
    [{ aiSettings: { scalper: { impulseLookback: 0 } } }, "impulseLookback deve estar entre 1 e 200", "aiSettings.scalper.impulseLookback"],
    [{ aiSettings: { news: { blackout: { beforeMin: 121 } } } }, "blackout.beforeMin deve estar entre 0 e 120", "aiSettings.news.blackout.beforeMin"],
    [{ aiSettings: { news: { blackout: { afterMin: 241 } } } }, "blackout.afterMin deve estar entre 0 e 240", "aiSettings.news.blackout.afterMin"],
    [{ maxTrades: "abc" }, "maxTrades deve ser um número", "maxTrades"],
    [{ tradingHours: { start: "24:00" } }, "tradingHours.start deve ser um horário entre 00:00 e 23:59 (HH:MM)", "tradingHours.start"],
    [{ tradingHours: { end: "23:60" } }, "tradingHours.end deve ser um horário entre 00:00 e 23:59 (HH:MM)", "tradingHours.end"],
    [{ tradingHours: { end: 900 } }, "tradingHours.end deve ser um horário entre 00:00 e 23:59 (HH:MM)", "tradingHours.end"],
    [{ tradingHours: { days: [0, 1] } }, "tradingHours.days deve conter dias da semana de 1 (segunda) a 7 (domingo)", "tradingHours.days"],
    [{ tradingHours: { days: [1.5] } }, "tradingHours.days deve conter dias da semana de 1 (segunda) a 7 (domingo)", "tradingHours.days"],
    [{ tradingHours: { days: "seg" } }, "tradingHours.days deve conter dias da semana de 1 (segunda) a 7 (domingo)", "tradingHours.days"],
    [{ tradingHours: { days: [] } }, "tradingHours.days deve ter pelo menos um dia da semana", "tradingHours.days"],
    [{ tradingHours: { enabled: "talvez" } }, "tradingHours.enabled deve ser verdadeiro ou falso", "tradingHours.enabled"],
    [{ weekend: { mode: "always" } }, "weekend.mode deve ser um de flat, no_entry, off", "weekend.mode"],
    [{ weekend: { minutesBeforeClose: 725 } }, "minutesBeforeClose deve estar entre 0 e 720", "weekend.minutesBeforeClose"],
    [{ weekend: { minutesBeforeClose: -5 } }, "minutesBeforeClose deve estar entre 0 e 720", "weekend.minutesBeforeClose"],
    [{ weekend: { minutesBeforeClose: 12 } }, "minutesBeforeClose deve variar em passos de 5", "weekend.minutesBeforeClose"],
    [{ dailyLossIncludesUnrealized: "x" }, "dailyLossIncludesUnrealized deve ser verdadeiro ou falso", "dailyLossIncludesUnrealized"],
    [{ timeframe: "H4" }, "timeframe deve ser um de M5, M15, M30, H1", "timeframe"],
  ])("rejects %j", (body, message, field) => {
    expect(bad(body)).toEqual({ ok: false, message, field });
  });

  it("coerces numeric strings and deep-merges onto current", () => {
    const r = parseSettingsUpdate({ maxTrades: "7", tpRatio: "2.3", aiSettings: { indicators: { bollinger: "on" } } }, cur);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings.maxTrades).toBe(7);
    expect(r.settings.tpRatio).toBe(2.3);
    expect(r.settings.aiSettings.indicators).toEqual({ ...cur.aiSettings.indicators, bollinger: true });
    expect(r.settings.aiSettings.cooldownSec).toBe(60);
  });

  it("scalper style switches scalper.enabled on, other styles off; unknown style → swing", () => {
    const a = parseSettingsUpdate({ aiSettings: { tradingStyle: "scalper" } }, cur);
    expect(a.ok && a.settings.aiSettings.scalper.enabled).toBe(true);
    const b = parseSettingsUpdate({ aiSettings: { tradingStyle: "day" } }, a.ok ? a.settings : cur);
    expect(b.ok && b.settings.aiSettings.scalper.enabled).toBe(false);
    const c = parseSettingsUpdate({ aiSettings: { tradingStyle: "yolo", news: { sensitivity: "extreme" } } }, cur);
    expect(c.ok && c.settings.aiSettings.tradingStyle).toBe("swing");
    expect(c.ok && c.settings.aiSettings.news.sensitivity).toBe("medium");
  });

  it("clamps impulseThreshold to 0–1", () => {
    const r = parseSettingsUpdate({ aiSettings: { scalper: { impulseThreshold: 1.7 } } }, cur);
    expect(r.ok && r.settings.aiSettings.scalper.impulseThreshold).toBe(1);
    const n = parseSettingsUpdate({ aiSettings: { scalper: { impulseThreshold: "-0.2" } } }, cur);
    expect(n.ok && n.settings.aiSettings.scalper.impulseThreshold).toBe(0);
  });

  it("accepts the positionSizing form", () => {
    const r = parseSettingsUpdate({ positionSizing: { mode: "fixed", fixedLot: "0.25" } }, cur);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings.lotMode).toBe("fixed");
    expect(r.settings.fixedLot).toBe(0.25);
    expect("positionSizing" in r.settings).toBe(false);
  });

  it("accepts a body of only {timeframe}", () => {
    const r = parseSettingsUpdate({ timeframe: "15m" }, cur);
    expect(r).toEqual({ ok: true, settings: { ...cur, timeframe: "M15" } });
  });

  it("trading hours, weekend and unrealized option: bounds accepted, forms coerced, partial updates merged", () => {
    const r = parseSettingsUpdate(
      { tradingHours: { enabled: "on", start: "9:30", end: "00:00", days: "5, 1, 1,7" }, weekend: { mode: " FLAT ", minutesBeforeClose: "720" }, dailyLossIncludesUnrealized: "true" },
      cur,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings.tradingHours).toEqual({ enabled: true, start: "09:30", end: "00:00", days: [1, 5, 7] });
    expect(r.settings.weekend).toEqual({ mode: "flat", minutesBeforeClose: 720 });
    expect(r.settings.dailyLossIncludesUnrealized).toBe(true);
    const edge = parseSettingsUpdate({ tradingHours: { start: "00:00", end: "23:59", days: [7] }, weekend: { minutesBeforeClose: 0, mode: "off" } }, r.settings);
    expect(edge.ok && edge.settings.tradingHours).toEqual({ enabled: true, start: "00:00", end: "23:59", days: [7] });
    expect(edge.ok && edge.settings.weekend).toEqual({ mode: "off", minutesBeforeClose: 0 });
    // a partial update keeps the other new fields
    const partial = parseSettingsUpdate({ weekend: { mode: "no_entry" } }, r.settings);
    expect(partial.ok && partial.settings.weekend).toEqual({ mode: "no_entry", minutesBeforeClose: 720 });
    expect(partial.ok && partial.settings.tradingHours.days).toEqual([1, 5, 7]);
  });

  it("rejects a non-object body", () => {
    expect(parseSettingsUpdate("x", cur).ok).toBe(false);
  });
});

describe("normaliseLoadedSettings", () => {
  it("falls back to defaults per field and never throws", () => {
    expect(normaliseLoadedSettings(null)).toEqual(DEFAULT_SETTINGS);
    expect(normaliseLoadedSettings("garbage")).toEqual(DEFAULT_SETTINGS);
    const n = normaliseLoadedSettings({
      maxTrades: 99,
      maxDailyTrades: "20",
      tpRatio: "abc",
      instruments: ["eur_usd", "GBP/USD"],
      aiSettings: { tradingStyle: "nope", cooldownSec: -5, indicators: { rsi: false }, scalper: { impulseThreshold: 5 } },
      positionSizing: { mode: "fixed", fixedLot: 0.1 },
    });
    expect(n.maxTrades).toBe(3);
    expect(n.maxDailyTrades).toBe(20);
    expect(n.tpRatio).toBe(1.5);
    expect(n.instruments).toEqual(["EUR_USD", "GBP_USD"]);
    expect(n.aiSettings.tradingStyle).toBe("swing");
    expect(n.aiSettings.cooldownSec).toBe(60);
    expect(n.aiSettings.indicators).toEqual({ ...DEFAULT_SETTINGS.aiSettings.indicators, rsi: false });
    expect(n.aiSettings.scalper.impulseThreshold).toBe(1);
    expect(n.lotMode).toBe("fixed");
    expect(n.fixedLot).toBe(0.1);
  });

  it("old stored settings without the issue 7 fields load with their defaults", () => {
    const old = structuredClone(DEFAULT_SETTINGS) as Record<string, unknown>;
    delete old.tradingHours;
    delete old.weekend;
    delete old.dailyLossIncludesUnrealized;
    old.maxTrades = 7;
    const n = normaliseLoadedSettings(old);
    expect(n).toEqual({ ...DEFAULT_SETTINGS, maxTrades: 7 });
    expect(tradingSettingsSchema.safeParse(n).success).toBe(true);
  });

  it("invalid issue 7 fields fall back per field", () => {
    const n = normaliseLoadedSettings({
      tradingHours: { enabled: true, start: "25:00", end: "18:30", days: [9] },
      weekend: { mode: "sometimes", minutesBeforeClose: 60 },
      dailyLossIncludesUnrealized: "maybe",
    });
    expect(n.tradingHours).toEqual({ enabled: true, start: "00:00", end: "18:30", days: [1, 2, 3, 4, 5] });
    expect(n.weekend).toEqual({ mode: "no_entry", minutesBeforeClose: 60 });
    expect(n.dailyLossIncludesUnrealized).toBe(false);
    // the defaults are not shared with the result
    n.tradingHours.days.push(6);
    expect(DEFAULT_SETTINGS.tradingHours.days).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("aiSettings.edgeOverrides (issue 21: trade a pair despite no proven edge)", () => {
  it("a save accepts supported pairs in any spelling and rejects an unknown one with a message naming the list", () => {
    const ok = parseSettingsUpdate({ aiSettings: { edgeOverrides: ["eur/usd", "GBP_USD", "EUR_USD"] } }, defaultSettings());
    expect(ok.ok && ok.settings.aiSettings.edgeOverrides).toEqual(["EUR_USD", "GBP_USD"]);
    const bad = parseSettingsUpdate({ aiSettings: { edgeOverrides: ["XAU_USD"] } }, defaultSettings());
    expect(bad).toMatchObject({ ok: false, field: "aiSettings.edgeOverrides.0" });
    expect(!bad.ok && bad.message).toBe("edgeOverrides deve ser uma lista de pares entre EUR_USD, GBP_USD, USD_JPY, AUD_USD, USD_CAD, USD_CHF, EUR_GBP, EUR_JPY");
  });

  it("another settings update keeps the overrides; on load unknown entries are dropped, the rest kept", () => {
    const current = { ...defaultSettings(), aiSettings: { ...defaultSettings().aiSettings, edgeOverrides: ["USD_JPY" as const] } };
    const r = parseSettingsUpdate({ maxTrades: 2 }, current);
    expect(r.ok && r.settings.aiSettings.edgeOverrides).toEqual(["USD_JPY"]);
    expect(normaliseLoadedSettings({ aiSettings: { edgeOverrides: ["EUR_USD", "XAU_USD", 7] } }).aiSettings.edgeOverrides).toEqual(["EUR_USD"]);
    expect(normaliseLoadedSettings({}).aiSettings.edgeOverrides).toEqual([]);
    expect(normaliseLoadedSettings({ aiSettings: { edgeOverrides: "EUR_USD" } }).aiSettings.edgeOverrides).toEqual(["EUR_USD"]);
  });
});

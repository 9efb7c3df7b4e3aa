/**
 * Issue 7 time windows and the rules that use them: the user's trading hours (timezone, midnight
 * crossing), the weekly FX close (Friday 17:00 New York, DST-safe) with settings.weekend, and the
 * daily loss limit with the unrealized P&L option.
 */
import { describe, expect, it } from "vitest";
import { renderMsg } from "../../../core/i18n";
import { evaluateRisk, fxWeekClose, isFxWeekendClosed, localInstant, marketCloseWindow, withinTradingHours } from "../../../core/risk";
import { dailyLossRule, tradingHoursRule, weekendRule } from "../../../core/risk/rules";
import { defaultSettings, type TradingSettings, type WeekendMode } from "../../../core/settings";
import { riskContext } from "./context";

/** São Paulo is UTC−3 all year (no DST since 2019): local = UTC − 3 h. */
const sp = (local: string) => new Date(`${local}-03:00`);
const hours = (start: string, end: string, days = [1, 2, 3, 4, 5], enabled = true): TradingSettings["tradingHours"] => ({ enabled, start, end, days });
function weekend(mode: WeekendMode, minutesBeforeClose = 120): Pick<TradingSettings, "weekend"> {
  return { weekend: { mode, minutesBeforeClose } };
}

describe("withinTradingHours", () => {
  const day = hours("09:00", "17:00");
  it("a same-day window includes its start and its end minute (2026-01-05 is a Monday)", () => {
    expect(withinTradingHours(sp("2026-01-05T08:59:59"), day)).toBe(false);
    expect(withinTradingHours(sp("2026-01-05T09:00:00"), day)).toBe(true);
    expect(withinTradingHours(sp("2026-01-05T17:00:59"), day)).toBe(true);
    expect(withinTradingHours(sp("2026-01-05T17:01:00"), day)).toBe(false);
    expect(withinTradingHours(sp("2026-01-09T12:00:00"), day)).toBe(true); // Friday
    expect(withinTradingHours(sp("2026-01-10T12:00:00"), day)).toBe(false); // Saturday: not an allowed day
    expect(withinTradingHours(sp("2026-01-11T12:00:00"), hours("09:00", "17:00", [7]))).toBe(true); // Sunday only
  });

  it("the defaults (00:00–23:59) cover the whole allowed day; disabled always allows", () => {
    const all = hours("00:00", "23:59");
    expect(withinTradingHours(sp("2026-01-05T00:00:00"), all)).toBe(true);
    expect(withinTradingHours(sp("2026-01-05T23:59:59"), all)).toBe(true);
    expect(withinTradingHours(sp("2026-01-10T12:00:00"), all)).toBe(false);
    expect(withinTradingHours(sp("2026-01-10T12:00:00"), hours("09:00", "10:00", [1], false))).toBe(true);
  });

  it("end < start crosses midnight; the part after midnight belongs to the day the window began", () => {
    const night = hours("22:00", "06:00"); // Monday–Friday nights
    expect(withinTradingHours(sp("2026-01-05T22:00:00"), night)).toBe(true); // Monday 22:00
    expect(withinTradingHours(sp("2026-01-06T03:00:00"), night)).toBe(true); // Tuesday 03:00 (Monday's night)
    expect(withinTradingHours(sp("2026-01-06T06:00:59"), night)).toBe(true);
    expect(withinTradingHours(sp("2026-01-06T06:01:00"), night)).toBe(false);
    expect(withinTradingHours(sp("2026-01-06T12:00:00"), night)).toBe(false); // midday
    expect(withinTradingHours(sp("2026-01-06T21:59:00"), night)).toBe(false);
    expect(withinTradingHours(sp("2026-01-10T03:00:00"), night)).toBe(true); // Saturday 03:00: Friday's night
    expect(withinTradingHours(sp("2026-01-10T22:30:00"), night)).toBe(false); // Saturday night: not allowed
    expect(withinTradingHours(sp("2026-01-05T03:00:00"), night)).toBe(false); // Monday 03:00: Sunday's night
    expect(withinTradingHours(sp("2026-01-05T03:00:00"), hours("22:00", "06:00", [7]))).toBe(true);
  });

  it("reads the clock in the given timezone (DST-safe)", () => {
    const open = hours("09:00", "10:00");
    const t = new Date("2026-01-05T14:30:00Z"); // 09:30 New York (EST), 11:30 São Paulo
    expect(withinTradingHours(t, open, "America/New_York")).toBe(true);
    expect(withinTradingHours(t, open, "America/Sao_Paulo")).toBe(false);
    expect(withinTradingHours(t, open)).toBe(false); // default America/Sao_Paulo
    // New York on EDT (2026-03-09): 09:30 local is 13:30Z
    expect(withinTradingHours(new Date("2026-03-09T13:30:00Z"), open, "America/New_York")).toBe(true);
    expect(withinTradingHours(new Date("2026-03-09T14:30:00Z"), open, "America/New_York")).toBe(false);
  });
});

describe("tradingHoursRule", () => {
  const settings = defaultSettings();
  settings.tradingHours = hours("09:00", "17:00");

  it("blocks outside the window with code trading_hours and does not stop the bot", () => {
    const v = tradingHoursRule(riskContext({ settings, now: sp("2026-01-05T18:00:00") }));
    expect(v).toMatchObject({ allowed: false, code: "trading_hours", reason: "Fora do horário de negociação (09:00–17:00, America/Sao_Paulo)" });
    expect(v?.stopBot).toBeUndefined();
    expect(renderMsg(v!.reasonMsg, "en")).toBe("Outside trading hours (09:00–17:00, America/Sao_Paulo)");
    expect(renderMsg(v!.reasonMsg, "es")).toBe("Fuera del horario de negociación (09:00–17:00, America/Sao_Paulo)");
  });

  it("passes inside the window, and when disabled", () => {
    expect(tradingHoursRule(riskContext({ settings, now: sp("2026-01-05T12:00:00") }))).toBeNull();
    expect(tradingHoursRule(riskContext({ now: sp("2026-01-10T03:00:00") }))).toBeNull(); // defaults: disabled
  });

  it("uses ctx.timezone; an unknown timezone falls back to America/Sao_Paulo instead of throwing", () => {
    const t = new Date("2026-01-05T21:00:00Z"); // 16:00 New York, 18:00 São Paulo
    expect(tradingHoursRule(riskContext({ settings, now: t, timezone: "America/New_York" }))).toBeNull();
    const v = tradingHoursRule(riskContext({ settings, now: t, timezone: "Mars/Olympus" }));
    expect(v?.reason).toBe("Fora do horário de negociação (09:00–17:00, America/Sao_Paulo)");
  });
});

describe("weekly FX close (Friday 17:00 to Sunday 17:00 New York)", () => {
  it("is 22:00Z on EST and 21:00Z on EDT", () => {
    expect(fxWeekClose(new Date("2026-01-05T15:00:00Z")).toISOString()).toBe("2026-01-09T22:00:00.000Z");
    expect(fxWeekClose(new Date("2026-07-06T15:00:00Z")).toISOString()).toBe("2026-07-10T21:00:00.000Z");
    expect(localInstant(2026, 1, 9, 17, 0, "America/New_York").toISOString()).toBe("2026-01-09T22:00:00.000Z");
  });

  it("DST week (New York springs forward on Sunday 2026-03-08): closed Fri 22:00Z, reopens Sun 21:00Z, next close Fri 21:00Z", () => {
    expect(isFxWeekendClosed(new Date("2026-03-06T21:59:59Z"))).toBe(false);
    expect(isFxWeekendClosed(new Date("2026-03-06T22:00:00Z"))).toBe(true);
    expect(isFxWeekendClosed(new Date("2026-03-07T12:00:00Z"))).toBe(true);
    expect(isFxWeekendClosed(new Date("2026-03-08T20:59:59Z"))).toBe(true); // 16:59 EDT
    expect(isFxWeekendClosed(new Date("2026-03-08T21:00:00Z"))).toBe(false); // 17:00 EDT
    // while closed the close of the current week (in the past); once open the next one
    expect(fxWeekClose(new Date("2026-03-08T20:00:00Z")).toISOString()).toBe("2026-03-06T22:00:00.000Z");
    expect(fxWeekClose(new Date("2026-03-08T21:00:00Z")).toISOString()).toBe("2026-03-13T21:00:00.000Z");
    expect(fxWeekClose(new Date("2026-03-13T20:59:59Z")).toISOString()).toBe("2026-03-13T21:00:00.000Z");
  });

  it("fall back (New York on Sunday 2026-11-01): closes Fri 21:00Z (EDT), the next Friday 22:00Z (EST)", () => {
    expect(fxWeekClose(new Date("2026-10-30T12:00:00Z")).toISOString()).toBe("2026-10-30T21:00:00.000Z");
    expect(isFxWeekendClosed(new Date("2026-11-01T21:30:00Z"))).toBe(true); // 16:30 EST
    expect(isFxWeekendClosed(new Date("2026-11-01T22:00:00Z"))).toBe(false); // 17:00 EST
    expect(fxWeekClose(new Date("2026-11-01T22:00:00Z")).toISOString()).toBe("2026-11-06T22:00:00.000Z");
  });
});

describe("marketCloseWindow", () => {
  const friday = (utc: string) => new Date(`2026-01-09T${utc}Z`); // EST: close at 22:00Z
  const close = new Date("2026-01-09T22:00:00Z");

  it("no_entry: inside the last minutesBeforeClose minutes and while closed, never flattens", () => {
    expect(marketCloseWindow(friday("19:59:59"), weekend("no_entry"))).toEqual({ noEntry: false, flatten: false, closesAt: close });
    expect(marketCloseWindow(friday("20:00:00"), weekend("no_entry"))).toEqual({ noEntry: true, flatten: false, closesAt: close });
    expect(marketCloseWindow(new Date("2026-01-10T12:00:00Z"), weekend("no_entry"))).toEqual({ noEntry: true, flatten: false, closesAt: close });
    expect(marketCloseWindow(new Date("2026-01-11T22:00:00Z"), weekend("no_entry")).noEntry).toBe(false); // reopened Sunday 17:00 EST
    expect(marketCloseWindow(new Date("2026-01-07T12:00:00Z"), weekend("no_entry")).noEntry).toBe(false); // Wednesday
  });

  it("flat: the same window flattens", () => {
    expect(marketCloseWindow(friday("19:59:59"), weekend("flat"))).toEqual({ noEntry: false, flatten: false, closesAt: close });
    expect(marketCloseWindow(friday("20:00:00"), weekend("flat"))).toEqual({ noEntry: true, flatten: true, closesAt: close });
    expect(marketCloseWindow(friday("21:59:00"), weekend("flat", 5))).toEqual({ noEntry: true, flatten: true, closesAt: close });
    expect(marketCloseWindow(friday("21:54:59"), weekend("flat", 5)).flatten).toBe(false);
  });

  it("off: nothing, closesAt null; 0 minutes: only while closed", () => {
    expect(marketCloseWindow(new Date("2026-01-10T12:00:00Z"), weekend("off"))).toEqual({ noEntry: false, flatten: false, closesAt: null });
    expect(marketCloseWindow(friday("21:59:59"), weekend("no_entry", 0)).noEntry).toBe(false);
    expect(marketCloseWindow(friday("22:00:00"), weekend("no_entry", 0)).noEntry).toBe(true);
  });

  it("720 minutes starts at Friday 05:00 New York; on EDT the window follows the 21:00Z close", () => {
    expect(marketCloseWindow(friday("09:59:59"), weekend("no_entry", 720)).noEntry).toBe(false);
    expect(marketCloseWindow(friday("10:00:00"), weekend("no_entry", 720)).noEntry).toBe(true);
    const edt = (utc: string) => new Date(`2026-03-13T${utc}Z`);
    expect(marketCloseWindow(edt("18:59:59"), weekend("flat"))).toMatchObject({ noEntry: false, flatten: false });
    expect(marketCloseWindow(edt("19:00:00"), weekend("flat"))).toEqual({ noEntry: true, flatten: true, closesAt: new Date("2026-03-13T21:00:00Z") });
  });
});

describe("weekendRule", () => {
  it("blocks entries with weekend_close (no stop) before the close and while closed; passes in 'off'", () => {
    const before = weekendRule(riskContext({ now: new Date("2026-01-09T20:30:00Z") }));
    expect(before).toMatchObject({ allowed: false, code: "weekend_close" });
    expect(before?.stopBot).toBeUndefined();
    expect(renderMsg(before!.reasonMsg, "en")).toBe("No new positions in the 120 min before the weekly market close (Friday 17:00, New York)");
    const closed = weekendRule(riskContext({ now: new Date("2026-01-10T12:00:00Z") }));
    expect(closed).toMatchObject({ code: "weekend_close", reason: "Mercado fechado no fim de semana: reabre domingo 17:00 (Nova York)" });
    expect(renderMsg(closed!.reasonMsg, "es")).toBe("Mercado cerrado por el fin de semana: reabre el domingo 17:00 (Nueva York)");
    const off = defaultSettings();
    off.weekend.mode = "off";
    expect(weekendRule(riskContext({ settings: off, now: new Date("2026-01-10T12:00:00Z") }))).toBeNull();
    expect(weekendRule(riskContext({ now: new Date("2026-01-09T19:00:00Z") }))).toBeNull();
  });
});

describe("dailyLossRule with unrealized P&L", () => {
  const on = defaultSettings();
  on.dailyLossIncludesUnrealized = true;

  it("off (default): only the realized loss counts", () => {
    expect(dailyLossRule(riskContext({ realizedPLToday: "-200", unrealizedPL: "-500" }))).toBeNull();
    expect(dailyLossRule(riskContext({ realizedPLToday: "-300", unrealizedPL: "+400" }))?.code).toBe("daily_loss_limit");
  });

  it("on: realized + unrealized against the day-start balance, same threshold and stop reason", () => {
    const v = dailyLossRule(riskContext({ settings: on, realizedPLToday: "-200", unrealizedPL: "-100" }));
    expect(v).toMatchObject({ allowed: false, code: "daily_loss_limit", stopBot: "daily_loss_limit", reason: "Limite diário de perdas atingido com o P&L não realizado: 3,00% (máximo 3,0%)" });
    expect(renderMsg(v!.reasonMsg, "en")).toBe("Daily loss limit reached including unrealized P&L: 3.00% (maximum 3.0%)");
    expect(dailyLossRule(riskContext({ settings: on, realizedPLToday: "-200", unrealizedPL: "-99.99" }))).toBeNull();
    // dayStartBalance, not the current balance, is the base
    expect(dailyLossRule(riskContext({ settings: on, realizedPLToday: "0", unrealizedPL: "-300", equity: "9000", dayStartBalance: "10000" }))?.code).toBe("daily_loss_limit");
    // an unrealized gain offsets realized losses
    expect(dailyLossRule(riskContext({ settings: on, realizedPLToday: "-300", unrealizedPL: "50" }))).toBeNull();
    // no unrealized figure: realized only, with the usual text
    expect(dailyLossRule(riskContext({ settings: on, realizedPLToday: "-300" }))?.reason).toBe("Limite diário de perdas atingido: 3,00% (máximo 3,0%)");
  });

  it("evaluateRisk stops the bot on it", () => {
    expect(evaluateRisk(riskContext({ settings: on, realizedPLToday: "-100", unrealizedPL: "-250" })).stopBot).toBe("daily_loss_limit");
    expect(evaluateRisk(riskContext({ realizedPLToday: "-100", unrealizedPL: "-250" })).allowed).toBe(true);
  });
});

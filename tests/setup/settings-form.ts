/**
 * The /settings form exactly as the page posts it (checkboxes absent when unticked), built from the
 * user's current settings read through GET /api/settings, with overrides (null removes a field).
 */
type Call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => Promise<{ status: number; body: T }>;

interface ApiSettings {
  lotMode: string; fixedLot: number; maxLeveragePerTrade: number; maxDailyTrades: number; maxDrawdownPct: number; dailyLossLimitPct: number; maxTrades: number; tpRatio: number; slRatio: number; instruments: string | string[]; timeframe?: string;
  dailyLossIncludesUnrealized: boolean; tradingDayBoundary?: string; tradingHours: { enabled: boolean; start: string; end: string; days: number[] }; weekend: { mode: string; minutesBeforeClose: number };
  aiSettings: { tradingStyle: string; cooldownSec: number; autoTimeframeSelection: boolean; indicators: Record<string, boolean>; scalper: Record<string, number | boolean>; news: { enabled: boolean; sensitivity: string; impactedOnly: boolean; blackout: { beforeMin: number; afterMin: number } } };
}

/**
 * A valid /settings form for `language`/`timezone` from the current settings, with overrides. The
 * weekdays go as one `tradingHours.days` value per ticked day (override them with a comma list, e.g.
 * "1,3", or null for none).
 */
export async function settingsFormFor(call: Call, prefs: { language: string; timezone: string }, over: Record<string, string | null> = {}): Promise<URLSearchParams> {
  const { body } = await call<{ settings: ApiSettings }>("GET", "/api/settings");
  const s = body.settings;
  const f: Record<string, string | null> = {
    intent: "save",
    lotMode: s.lotMode,
    fixedLot: String(s.fixedLot),
    maxLeveragePerTrade: String(s.maxLeveragePerTrade),
    maxDailyTrades: String(s.maxDailyTrades),
    maxDrawdownPct: String(s.maxDrawdownPct),
    dailyLossLimitPct: String(s.dailyLossLimitPct),
    maxTrades: String(s.maxTrades),
    tpRatio: String(s.tpRatio),
    slRatio: String(s.slRatio),
    dailyLossIncludesUnrealized: s.dailyLossIncludesUnrealized ? "on" : null,
    tradingDayBoundary: s.tradingDayBoundary ?? "local_midnight",
    "tradingHours.enabled": s.tradingHours.enabled ? "on" : null,
    "tradingHours.start": s.tradingHours.start,
    "tradingHours.end": s.tradingHours.end,
    "tradingHours.days": s.tradingHours.days.join(","),
    "weekend.mode": s.weekend.mode,
    "weekend.minutesBeforeClose": String(s.weekend.minutesBeforeClose),
    instruments: s.instruments === "*" ? "*" : (s.instruments as string[]).join(", "),
    timeframe: s.timeframe ?? "",
    "aiSettings.tradingStyle": s.aiSettings.tradingStyle,
    "aiSettings.cooldownSec": String(s.aiSettings.cooldownSec),
    "aiSettings.autoTimeframeSelection": s.aiSettings.autoTimeframeSelection ? "on" : null,
    "aiSettings.news.enabled": s.aiSettings.news.enabled ? "on" : null,
    "aiSettings.news.impactedOnly": s.aiSettings.news.impactedOnly ? "on" : null,
    "aiSettings.news.sensitivity": s.aiSettings.news.sensitivity,
    "aiSettings.news.blackout.beforeMin": String(s.aiSettings.news.blackout.beforeMin),
    "aiSettings.news.blackout.afterMin": String(s.aiSettings.news.blackout.afterMin),
    "preferences.language": prefs.language,
    "preferences.timezone": prefs.timezone,
  };
  for (const [k, v] of Object.entries(s.aiSettings.indicators)) f[`aiSettings.indicators.${k}`] = v ? "on" : null;
  for (const [k, v] of Object.entries(s.aiSettings.scalper)) f[`aiSettings.scalper.${k}`] = typeof v === "boolean" ? (v ? "on" : null) : String(v);
  Object.assign(f, over);
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) {
    if (v === null) continue;
    if (k === "tradingHours.days") for (const day of v.split(",")) p.append(k, day.trim());
    else p.set(k, v);
  }
  return p;
}

/**
 * The /settings form schema, derived from THE trading settings schema (core/settings.ts
 * `tradingSettingsSchema`, PRODUCT.md §3, §5) plus the user's language and timezone preferences.
 * The page action (server) and the browser (live validation with conform) parse the same FormData
 * with `settingsFormSchema`, so both show the same message naming the field and bounds; messages are
 * translatable (core/i18n/zod-message.ts): shown with `translateIssue(t, text)` in the user's language.
 * Also: the HTML min/max/step of every numeric field (PRODUCT.md §5) and the form's boolean fields
 * (an unticked checkbox is absent from the FormData: absent means false here). Trading hours (issue 7)
 * post "HH:MM" times (`<input type="time">`) and one `tradingHours.days` value per ticked weekday.
 */
import { z } from "zod";
import { zMsg } from "../../core/i18n/zod-message";
import {
  ISO_WEEKDAYS,
  MAX_LEVERAGE_LIMIT,
  TRADING_STYLES,
  tradingSettingsSchema,
  WEEKEND_MODES,
  type TradingSettings,
  type TradingStyle,
  type WeekendMode,
} from "../../core/settings";
import { DISPLAY_CURRENCIES } from "./display-currency";

/** Languages of the interface (PRODUCT.md §3 User preferences). */
export const LANGUAGES = ["pt", "en", "es"] as const;
/** Timezones offered (PRODUCT.md §5 admin user form list); the default comes first. */
export const TIMEZONES = [
  "America/Sao_Paulo",
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Los_Angeles",
  "Europe/London",
  "Europe/Lisbon",
  "Europe/Madrid",
] as const;

/** Language and timezone of the user (users.preferences). */
export const preferencesSchema = z.object({
  language: z.enum(LANGUAGES, zMsg("validation:language")),
  timezone: z.enum(TIMEZONES, zMsg("validation:oneOf", { name: "timezone", list: TIMEZONES.join(", ") })),
  // Issue 22: the display currency (amounts also shown converted at the broker's rate); absent keeps the stored one.
  currency: z.enum(DISPLAY_CURRENCIES, zMsg("admin-users:currency")).optional(),
});
/** Validated preferences. */
export type PreferencesInput = z.output<typeof preferencesSchema>;

/** Dotted names of the boolean settings (checkboxes). */
export const BOOLEAN_FIELDS = [
  "dailyLossIncludesUnrealized",
  "tradingHours.enabled",
  "aiSettings.autoTimeframeSelection",
  "aiSettings.indicators.rsi",
  "aiSettings.indicators.macd",
  "aiSettings.indicators.ema",
  "aiSettings.indicators.bollinger",
  "aiSettings.indicators.stochastic",
  "aiSettings.scalper.enabled",
  "aiSettings.scalper.m1FallbackToM5",
  "aiSettings.scalper.trailWithMicroAtr",
  "aiSettings.scalper.reduceTpOnChop",
  "aiSettings.news.enabled",
  "aiSettings.news.impactedOnly",
] as const;

/** HTML constraints of a numeric field. */
export interface NumberInputRule {
  min: number;
  max?: number;
  /** A number, or "any" where the schema has no grid. */
  step: number | "any";
}

/** min/max/step of every numeric field (PRODUCT.md §5 Trading settings bounds; same as the schema). */
export const NUMBER_FIELDS: Record<string, NumberInputRule> = {
  fixedLot: { min: 0.01, step: 0.01 },
  maxLeveragePerTrade: { min: 1, max: MAX_LEVERAGE_LIMIT, step: 0.5 },
  maxDailyTrades: { min: 1, max: 100, step: 1 },
  maxDrawdownPct: { min: 1, max: 100, step: 0.5 },
  dailyLossLimitPct: { min: 0.5, max: 20, step: 0.5 },
  maxTrades: { min: 1, max: 20, step: 1 },
  tpRatio: { min: 0.5, max: 5, step: 0.1 },
  slRatio: { min: 0.5, max: 3, step: 0.1 },
  "weekend.minutesBeforeClose": { min: 0, max: 720, step: 5 },
  "aiSettings.cooldownSec": { min: 0, max: 3600, step: 5 },
  "aiSettings.scalper.maxHoldSec": { min: 5, max: 3600, step: 5 },
  "aiSettings.scalper.microAtrPeriod": { min: 2, max: 200, step: 1 },
  "aiSettings.scalper.impulseLookback": { min: 1, max: 200, step: 1 },
  "aiSettings.scalper.impulseThreshold": { min: 0, max: 1, step: 0.05 },
  "aiSettings.scalper.trailMult": { min: 0.1, max: 10, step: "any" },
  "aiSettings.news.blackout.beforeMin": { min: 0, max: 120, step: "any" },
  "aiSettings.news.blackout.afterMin": { min: 0, max: 240, step: "any" },
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Reads a dotted path. */
export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const key of path.split(".")) {
    if (!isRecord(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let cur = obj;
  for (const key of keys.slice(0, -1)) {
    if (!isRecord(cur[key])) cur[key] = {};
    cur = cur[key] as Record<string, unknown>;
  }
  cur[keys[keys.length - 1]!] = value;
}

/** The weekday checkboxes of the trading hours: one `tradingHours.days` value per ticked day (1–7). */
export const WEEKDAYS_FIELD = "tradingHours.days";
/** ISO weekdays in the order shown (Monday first). */
export const WEEKDAY_OPTIONS: readonly number[] = ISO_WEEKDAYS;
/** Weekend modes, for the select. */
export const WEEKEND_MODE_OPTIONS: readonly WeekendMode[] = WEEKEND_MODES;

/**
 * Form shape → settings shape: an absent checkbox is false (a repeated value keeps the last one),
 * no ticked weekday is an empty list (rejected: at least one day), an empty manual timeframe means "none".
 */
export function fillFormDefaults(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const out = structuredClone(raw);
  for (const path of BOOLEAN_FIELDS) {
    const v = getPath(out, path);
    if (v === undefined || v === null) setPath(out, path, false);
    else if (Array.isArray(v)) setPath(out, path, v[v.length - 1]);
  }
  const days = getPath(out, WEEKDAYS_FIELD);
  if (days === undefined || days === null) setPath(out, WEEKDAYS_FIELD, []);
  if (out.timeframe === "" || out.timeframe === null) delete out.timeframe;
  return out;
}

/** The AI block of the form: `edgeOverrides` is saved by its own section ("Operar mesmo assim"), so the form may leave it out (kept as stored). */
const formAiSettings = tradingSettingsSchema.shape.aiSettings.extend({ edgeOverrides: tradingSettingsSchema.shape.aiSettings.shape.edgeOverrides.optional() });

/** The whole settings form: every trading setting (the one schema) plus `preferences`. */
export const settingsFormSchema = z.preprocess(fillFormDefaults, tradingSettingsSchema.extend({ aiSettings: formAiSettings, preferences: preferencesSchema }));
/** A validated settings form. */
export type SettingsFormValue = z.output<typeof settingsFormSchema>;

/**
 * The update to save from a validated form: the trading settings without `preferences`; a manual
 * timeframe left empty clears it (`null`); when the style did not change, `tradingStyle` is left out
 * so the 'scalper ativado' checkbox is honoured (choosing a style sets it: PRODUCT.md §4).
 */
export function settingsPatchFromForm(value: SettingsFormValue, current: Pick<TradingSettings, "aiSettings">): Record<string, unknown> {
  const { preferences: _preferences, ...settings } = value;
  const patch = structuredClone(settings) as Record<string, unknown> & { aiSettings: Record<string, unknown> };
  if (settings.aiSettings.tradingStyle === current.aiSettings.tradingStyle) delete patch.aiSettings.tradingStyle;
  if (settings.timeframe === undefined) patch.timeframe = null;
  return patch;
}

/** Style change in the UI: scalper turns scalper.enabled on, the other styles off (PRODUCT.md §4). */
export function scalperEnabledFor(style: string): boolean {
  return style === "scalper";
}

/** True when the scalper advanced block is shown: style scalper or scalper enabled (PRODUCT.md §4). */
export function showScalperBlock(style: string, enabled: boolean): boolean {
  return style === "scalper" || enabled;
}

/** Allowed trading styles, for the select. */
export const STYLE_OPTIONS: readonly TradingStyle[] = TRADING_STYLES;

/** The first message of a conform/zod error map (keys in issue order): a Portuguese text, see `decodeIssueMessage`. */
export function firstFormError(error: Record<string, string[] | null> | null | undefined): string | null {
  if (!error) return null;
  for (const messages of Object.values(error)) if (messages && messages.length) return messages[0]!;
  return null;
}

/** A flag of the settings side forms: on when the field posts "1" (hidden inputs, submit buttons). */
const formFlag = z.unknown().optional().transform((v) => v === "1");

/**
 * The "Operar mesmo assim" switch form (issue 21, components/settings/edge-overrides.tsx): the pair,
 * ON (`enable=1`) or OFF, the warning's confirmation (`confirmed=1`) or its Cancelar (`cancel=1`:
 * nothing saved). The pair itself is checked by the service (`setEdgeOverride` refuses an unknown
 * pair with its message); a value that is not a text reads as no pair.
 */
export const edgeOverrideFormSchema = z.object({ instrument: z.string().catch(""), enable: formFlag, confirmed: formFlag, cancel: formFlag });

/**
 * The push card's topics form (issue 11, components/settings/account-sections.tsx): one `pushTopics`
 * value per ticked switch, parsed from `form.getAll("pushTopics")`. The service (`savePushTopics`)
 * refuses an unknown topic ('push:invalidTopics'); a value that is not a text reads as an unknown one.
 */
export const pushTopicsFormSchema = z.object({ pushTopics: z.array(z.string().catch("")) });

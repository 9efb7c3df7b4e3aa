/**
 * Trading settings of one user (PRODUCT.md §3 "Trading settings"): schema, defaults, load-time
 * normalisation, save-time validation, and the fixed-lot rule.
 *
 * - Bounds and steps: PRODUCT.md §5 "Trading settings bounds". Defaults: PRODUCT.md §9 "Defaults".
 * - `tradingSettingsSchema` is the one zod schema for the settings form: the server action and the
 *   client (progressive enhancement) both use it. It coerces numeric strings ("1.5") and form
 *   booleans ("on", "true") and carries translatable messages (core/i18n/zod-message.ts: the issue
 *   text is the Portuguese rendering; `decodeIssueMessage` gives the message for the reader's language).
 * - Canonical form: `lotMode`/`fixedLot` at the top level. The alternative `positionSizing {mode,
 *   fixedLot}` (PRODUCT.md §3) is accepted on input and mapped onto them.
 */
import { z } from "zod";
import { zMsg } from "./i18n/zod-message";
import { AI_TIMEFRAMES, MAJOR_MARGIN_RATE, normaliseTimeframeLabel, SUPPORTED_INSTRUMENTS } from "./instruments";
import { DEFAULT_TRADING_DAY_BOUNDARY, TRADING_DAY_BOUNDARIES } from "./risk/trading-day";

export const TRADING_STYLES = ["scalper", "day", "swing", "position"] as const;
export type TradingStyle = (typeof TRADING_STYLES)[number];
export const NEWS_SENSITIVITIES = ["low", "medium", "high"] as const;
export const LOT_MODES = ["auto", "fixed"] as const;
export type LotMode = (typeof LOT_MODES)[number];
/**
 * What the bot does near the weekly FX close (Friday 17:00 New York, core/risk/market-hours.ts):
 * 'flat' closes open positions and opens none, 'no_entry' only opens none, 'off' does nothing.
 */
export const WEEKEND_MODES = ["flat", "no_entry", "off"] as const;
export type WeekendMode = (typeof WEEKEND_MODES)[number];
/** ISO weekdays: 1 = Monday … 7 = Sunday. */
export const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** True when `v` sits on the grid `base + k·step` (float-safe to 1e-9). */
function onStep(v: number, step: number, base: number): boolean {
  const k = (v - base) / step;
  return Math.abs(k - Math.round(k)) < 1e-9;
}

/** Numeric strings from forms/JSON become numbers; anything else is left for zod to reject. */
function coerceNumber(v: unknown): unknown {
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v.trim().replace(",", "."));
    return Number.isFinite(n) ? n : v;
  }
  return v;
}

/** Form booleans ("on", "true", "1", "false", "0", "off") become booleans. */
function coerceBoolean(v: unknown): unknown {
  if (typeof v === "string") {
    const s = v.trim().toLowerCase();
    if (["true", "on", "1", "yes", "sim"].includes(s)) return true;
    if (["false", "off", "0", "no", "nao", "não", ""].includes(s)) return false;
  }
  if (v === 1) return true;
  if (v === 0) return false;
  return v;
}

interface NumberRule {
  min: number;
  max?: number;
  step?: number;
  int?: boolean;
}

/**
 * A bounded number field with translatable messages naming the field and its bounds (`zMsg`: the
 * Portuguese text is "maxTrades deve estar entre 1 e 20", numbers in pt format like "0,5").
 */
function boundedNumber(name: string, rule: NumberRule) {
  const range =
    rule.max === undefined
      ? zMsg("validation:number.min", { name, min: rule.min })
      : zMsg("validation:number.range", { name, min: rule.min, max: rule.max });
  let s = z.number(zMsg("validation:number.type", { name })).min(rule.min, range);
  if (rule.max !== undefined) s = s.max(rule.max, range);
  if (rule.int) s = s.int(zMsg("validation:number.int", { name }));
  const { step } = rule;
  const checked =
    step === undefined ? s : s.refine((v) => onStep(v, step, 0), zMsg("validation:number.step", { name, step }));
  return z.preprocess(coerceNumber, checked);
}

function bool(name: string) {
  return z.preprocess(coerceBoolean, z.boolean(zMsg("validation:boolean", { name })));
}

/** A wall-clock time "HH:MM", 00:00–23:59. */
const CLOCK_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * Minutes since midnight of a "HH:MM" time (00:00–23:59), or null when `v` is not one.
 * "09:30" → 570.
 */
export function clockMinutes(v: string): number | null {
  const m = CLOCK_TIME.exec(v);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** "9:30" and "09:30:00" (what some time inputs post) become "09:30"; anything else is left for zod. */
function normaliseClockTime(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const m = /^\s*(\d{1,2}):(\d{2})(?::00)?\s*$/.exec(v);
  return m ? `${m[1]!.padStart(2, "0")}:${m[2]}` : v.trim();
}

/** A "HH:MM" setting (00:00–23:59). */
function clockTime(name: string) {
  const message = zMsg("validation:time", { name });
  return z.preprocess(normaliseClockTime, z.string(message).regex(CLOCK_TIME, message));
}

/**
 * Weekdays from a form ("1", ["1", "5"], "1, 2, 3") or JSON ([1, 5]) → sorted, unique ISO weekdays
 * (1–7). A list with anything else becomes `null`, which the schema rejects with its own message.
 */
function normaliseWeekdays(v: unknown): unknown {
  const list = typeof v === "string" ? (v.trim() === "" ? [] : v.split(",")) : typeof v === "number" ? [v] : v;
  if (!Array.isArray(list)) return v;
  const days = list.map(coerceNumber);
  if (!days.every((d) => typeof d === "number" && Number.isInteger(d) && d >= 1 && d <= 7)) return null;
  return [...new Set(days as number[])].sort((a, b) => a - b);
}

/** The allowed ISO weekdays of a setting: at least one of 1 (Monday) … 7 (Sunday). */
function weekdays(name: string) {
  return z.preprocess(
    normaliseWeekdays,
    z.array(z.number(), zMsg("validation:weekdays.invalid", { name })).min(1, zMsg("validation:weekdays.min", { name })),
  );
}

/** Instrument list: '*' (all supported) or names like EUR_USD; a comma-separated string is split. */
const instrumentsSchema = z.preprocess(
  (v) => {
    if (v === "*" || v === "" || (Array.isArray(v) && v.length === 1 && v[0] === "*")) return "*";
    const list = typeof v === "string" ? v.split(",") : v;
    if (!Array.isArray(list)) return v;
    return [...new Set(list.map((s) => (typeof s === "string" ? s.trim().toUpperCase().replace("/", "_") : s)))];
  },
  z.union(
    [
      z.literal("*"),
      z
        .array(z.string().regex(/^[A-Z]{3}_[A-Z]{3}$/, zMsg("validation:instruments.format")))
        .min(1, zMsg("validation:instruments.min"))
        .max(20, zMsg("validation:instruments.max", { max: 20 })),
    ],
    zMsg("validation:instruments.invalid"),
  ),
);

/** "eur/usd" and "EUR_USD" → "EUR_USD"; a comma-separated string is split (forms). */
function normaliseInstrumentList(v: unknown): unknown {
  const list = typeof v === "string" ? (v.trim() === "" ? [] : v.split(",")) : v;
  if (!Array.isArray(list)) return v;
  return [...new Set(list.map((s) => (typeof s === "string" ? s.trim().toUpperCase().replace("/", "_") : s)))];
}

/**
 * `aiSettings.edgeOverrides` (issue 21): the pairs the user chose to trade although the edge table
 * shows no out-of-sample edge for them in the chosen style (core/trading/edge-gate.ts). Only supported
 * instruments (core/instruments.ts); on load, unknown entries are dropped (`normaliseLoadedSettings`).
 */
const EDGE_OVERRIDES_MESSAGE = zMsg("validation:edgeOverrides", { list: SUPPORTED_INSTRUMENTS.join(", ") });
const edgeOverridesSchema = z.preprocess(normaliseInstrumentList, z.array(z.enum(SUPPORTED_INSTRUMENTS, EDGE_OVERRIDES_MESSAGE), EDGE_OVERRIDES_MESSAGE));

/** Manual timeframe (used when autoTimeframeSelection is off); labels like "15m" are normalised. */
const timeframeSchema = z.preprocess(
  (v) => (typeof v === "string" ? normaliseTimeframeLabel(v) : v === null ? undefined : v),
  z.enum(AI_TIMEFRAMES, zMsg("validation:oneOf", { name: "timeframe", list: AI_TIMEFRAMES.join(", ") })).optional(),
);

/**
 * The trading settings schema (PRODUCT.md §3 fields, §5 bounds). Unknown keys are dropped.
 * Style outside the list becomes 'swing', sensitivity 'medium', impulseThreshold is clamped to 0–1
 * (PRODUCT.md §5); every other invalid value is rejected with a translatable message.
 */
/**
 * Largest fixed lot accepted (10,000,000 units). PRODUCT.md §5 sets only the minimum; an unbounded
 * lot is a typo away from a position no retail account can carry. Sizing also refuses any fixed lot
 * beyond the leverage and margin caps of core/engine/sizing.ts.
 */
export const MAX_FIXED_LOT = 100;

/**
 * Default of `maxLeveragePerTrade`: automatic sizing never opens more than 5× the balance of notional
 * per trade (the cap core/engine/sizing.ts always had; ADR 0034). With stops shorter than
 * 5 × 1 % of the price it binds, so the real risk is below the 1 % rule (median 0.41 % on swing).
 */
export const DEFAULT_MAX_LEVERAGE_PER_TRADE = 5;
/**
 * Highest `maxLeveragePerTrade` accepted: the broker's retail limit for major pairs, 1 / 0.0333 margin
 * (30:1, ESMA, core/instruments.ts MAJOR_MARGIN_RATE). Sizing also keeps each pair within its own
 * margin rate (20:1 for AUD_USD; the broker's rate when it gives one).
 */
export const MAX_LEVERAGE_LIMIT = Math.floor(1 / Number(MAJOR_MARGIN_RATE));

export const tradingSettingsSchema = z.object({
  lotMode: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toLowerCase() : v),
    z.enum(LOT_MODES, zMsg("validation:lotMode")),
  ),
  fixedLot: boundedNumber("fixedLot", { min: 0.01, max: MAX_FIXED_LOT, step: 0.01 }),
  /** Largest notional of one trade as a multiple of the balance (×; 1–MAX_LEVERAGE_LIMIT, step 0.5; ADR 0034). */
  maxLeveragePerTrade: boundedNumber("maxLeveragePerTrade", { min: 1, max: MAX_LEVERAGE_LIMIT, step: 0.5 }),
  maxDailyTrades: boundedNumber("maxDailyTrades", { min: 1, max: 100, int: true }),
  maxDrawdownPct: boundedNumber("maxDrawdownPct", { min: 1, max: 100, step: 0.5 }),
  dailyLossLimitPct: boundedNumber("dailyLossLimitPct", { min: 0.5, max: 20, step: 0.5 }),
  tpRatio: boundedNumber("tpRatio", { min: 0.5, max: 5, step: 0.1 }),
  slRatio: boundedNumber("slRatio", { min: 0.5, max: 3, step: 0.1 }),
  maxTrades: boundedNumber("maxTrades", { min: 1, max: 20, int: true }),
  /** The daily loss limit also counts the open trades' unrealized P&L (core/risk dailyLossRule). */
  dailyLossIncludesUnrealized: bool("dailyLossIncludesUnrealized"),
  /**
   * Where the trading day of the daily loss limit, the daily trade count and the "today" statistics
   * starts: "local_midnight" (user's timezone) or "ny_close" (17:00 New York; core/risk/trading-day.ts).
   */
  tradingDayBoundary: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toLowerCase() : v),
    z.enum(TRADING_DAY_BOUNDARIES, zMsg("validation:oneOf", { name: "tradingDayBoundary", list: TRADING_DAY_BOUNDARIES.join(", ") })),
  ),
  /**
   * New trades only inside [start, end] (minute resolution, end minute included) on the allowed ISO
   * weekdays, in the user's timezone; end < start crosses midnight, and the part after midnight
   * belongs to the day the window started on (core/risk/market-hours.ts).
   */
  tradingHours: z.object({
    enabled: bool("tradingHours.enabled"),
    start: clockTime("tradingHours.start"),
    end: clockTime("tradingHours.end"),
    days: weekdays("tradingHours.days"),
  }),
  /** Behaviour in the last minutes before the weekly FX close and while the market is closed. */
  weekend: z.object({
    mode: z.preprocess(
      (v) => (typeof v === "string" ? v.trim().toLowerCase() : v),
      z.enum(WEEKEND_MODES, zMsg("validation:oneOf", { name: "weekend.mode", list: WEEKEND_MODES.join(", ") })),
    ),
    minutesBeforeClose: boundedNumber("minutesBeforeClose", { min: 0, max: 720, step: 5 }),
  }),
  instruments: instrumentsSchema,
  timeframe: timeframeSchema,
  aiSettings: z.object({
    tradingStyle: z.preprocess(
      (v) => (typeof v === "string" && (TRADING_STYLES as readonly string[]).includes(v) ? v : "swing"),
      z.enum(TRADING_STYLES),
    ),
    edgeOverrides: edgeOverridesSchema,
    cooldownSec: boundedNumber("cooldownSec", { min: 0, max: 3600, step: 5 }),
    autoTimeframeSelection: bool("autoTimeframeSelection"),
    indicators: z.object({
      rsi: bool("rsi"),
      macd: bool("macd"),
      ema: bool("ema"),
      bollinger: bool("bollinger"),
      stochastic: bool("stochastic"),
    }),
    scalper: z.object({
      enabled: bool("scalper.enabled"),
      maxHoldSec: boundedNumber("maxHoldSec", { min: 5, max: 3600, step: 5 }),
      m1FallbackToM5: bool("m1FallbackToM5"),
      microAtrPeriod: boundedNumber("microAtrPeriod", { min: 2, max: 200, int: true }),
      impulseLookback: boundedNumber("impulseLookback", { min: 1, max: 200, int: true }),
      impulseThreshold: z.preprocess((v) => {
        const n = coerceNumber(v);
        return typeof n === "number" && Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : n;
      }, z.number(zMsg("validation:number.type", { name: "impulseThreshold" }))),
      trailWithMicroAtr: bool("trailWithMicroAtr"),
      trailMult: boundedNumber("trailMult", { min: 0.1, max: 10 }),
      reduceTpOnChop: bool("reduceTpOnChop"),
    }),
    news: z.object({
      enabled: bool("news.enabled"),
      sensitivity: z.preprocess(
        (v) => (typeof v === "string" && (NEWS_SENSITIVITIES as readonly string[]).includes(v) ? v : "medium"),
        z.enum(NEWS_SENSITIVITIES),
      ),
      impactedOnly: bool("impactedOnly"),
      blackout: z.object({
        beforeMin: boundedNumber("blackout.beforeMin", { min: 0, max: 120 }),
        afterMin: boundedNumber("blackout.afterMin", { min: 0, max: 240 }),
      }),
    }),
  }),
});

/** Trading settings in canonical form (units: pct in percent, sec in seconds, min in minutes). */
export type TradingSettings = z.output<typeof tradingSettingsSchema>;

/**
 * The defaults of PRODUCT.md §9 ("Defaults: lotMode auto, fixedLot 0.01, ..."); no manual timeframe.
 * Trading hours, weekend and unrealized-loss options: issue 7 defaults.
 */
export const DEFAULT_SETTINGS: Readonly<TradingSettings> = deepFreeze({
  lotMode: "auto",
  fixedLot: 0.01,
  maxLeveragePerTrade: DEFAULT_MAX_LEVERAGE_PER_TRADE,
  maxDailyTrades: 15,
  maxDrawdownPct: 5,
  dailyLossLimitPct: 3,
  tpRatio: 1.5,
  slRatio: 1,
  maxTrades: 3,
  // Issue 7 (not in PRODUCT.md §9): off by default, so existing behaviour is unchanged except the
  // weekend guard, on by default because weekend gaps through stops lost 1.4–2.9 % on a 1 % risk.
  dailyLossIncludesUnrealized: false,
  // Issue 22: today's behaviour (PRODUCT.md §9 "P&L today from local midnight").
  tradingDayBoundary: DEFAULT_TRADING_DAY_BOUNDARY,
  tradingHours: { enabled: false, start: "00:00", end: "23:59", days: [1, 2, 3, 4, 5] },
  weekend: { mode: "no_entry", minutesBeforeClose: 120 },
  instruments: "*",
  aiSettings: {
    tradingStyle: "swing",
    edgeOverrides: [],
    cooldownSec: 60,
    autoTimeframeSelection: true,
    indicators: { rsi: true, macd: true, ema: true, bollinger: false, stochastic: false },
    scalper: {
      enabled: false,
      maxHoldSec: 180,
      m1FallbackToM5: true,
      microAtrPeriod: 10,
      impulseLookback: 8,
      impulseThreshold: 0.7,
      trailWithMicroAtr: true,
      trailMult: 1.2,
      reduceTpOnChop: true,
    },
    news: {
      enabled: true,
      sensitivity: "medium",
      impactedOnly: true,
      blackout: { beforeMin: 5, afterMin: 10 },
    },
  },
} satisfies TradingSettings);

function deepFreeze<T>(o: T): T {
  if (typeof o === "object" && o !== null) {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

/** A fresh, mutable copy of the defaults. */
export function defaultSettings(): TradingSettings {
  return structuredClone(DEFAULT_SETTINGS) as TradingSettings;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Walks a zod object shape: each leaf keeps the stored value if valid, else the default. */
function normaliseObject(shape: Record<string, z.ZodType>, raw: unknown, fallback: Record<string, unknown>): Record<string, unknown> {
  const src = isRecord(raw) ? raw : {};
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape)) {
    const def = fallback[key];
    if (schema instanceof z.ZodObject) {
      out[key] = normaliseObject(schema.shape as Record<string, z.ZodType>, src[key], def as Record<string, unknown>);
      continue;
    }
    const r = schema.safeParse(src[key]);
    out[key] = r.success && (r.data !== undefined || src[key] === undefined) ? r.data : structuredClone(def);
  }
  return out;
}

/**
 * Settings as stored (any shape, possibly old or corrupt) → valid settings. Each invalid or missing
 * field falls back to its default (PRODUCT.md §5 "On load invalid values fall back to defaults");
 * the `positionSizing` form is honoured. Never throws.
 */
export function normaliseLoadedSettings(raw: unknown): TradingSettings {
  const src = isRecord(raw) ? dropUnknownOverrides(liftPositionSizing(raw)) : {};
  const out = normaliseObject(
    tradingSettingsSchema.shape as unknown as Record<string, z.ZodType>,
    src,
    DEFAULT_SETTINGS as unknown as Record<string, unknown>,
  ) as TradingSettings;
  if (out.timeframe === undefined) delete out.timeframe;
  return out;
}

/** Stored `aiSettings.edgeOverrides` keep their supported instruments only (an unknown one is dropped, not the list). */
function dropUnknownOverrides(src: Record<string, unknown>): Record<string, unknown> {
  const ai = src.aiSettings;
  if (!isRecord(ai) || !Array.isArray(ai.edgeOverrides)) return src;
  const kept = ai.edgeOverrides.filter((i): i is string => typeof i === "string" && (SUPPORTED_INSTRUMENTS as readonly string[]).includes(i));
  return { ...src, aiSettings: { ...ai, edgeOverrides: kept } };
}

/** Maps `positionSizing {mode, fixedLot}` onto `lotMode`/`fixedLot` (top-level values win). */
function liftPositionSizing(body: Record<string, unknown>): Record<string, unknown> {
  const { positionSizing, ...rest } = body;
  if (isRecord(positionSizing)) {
    if (rest.lotMode === undefined && positionSizing.mode !== undefined) rest.lotMode = positionSizing.mode;
    if (rest.fixedLot === undefined && positionSizing.fixedLot !== undefined) rest.fixedLot = positionSizing.fixedLot;
  }
  return rest;
}

/** Deep merge of a partial update onto a base: objects merge, everything else (arrays too) replaces. */
function deepMerge(base: unknown, patch: unknown): unknown {
  if (!isRecord(patch) || !isRecord(base)) return patch === undefined ? base : patch;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    out[k] = deepMerge(base[k], v);
  }
  return out;
}

const SETTINGS_BODY_MESSAGE = zMsg("validation:settingsBody");

export type SettingsUpdateResult =
  | { ok: true; settings: TradingSettings }
  | { ok: false; message: string; field: string };

/**
 * Validates a (partial) settings update from a form or JSON body and deep-merges it onto `current`.
 * Numeric strings are coerced; `positionSizing` is mapped to lotMode/fixedLot; choosing a
 * tradingStyle sets `scalper.enabled` to (style === 'scalper') (PRODUCT.md §4 "Settings save").
 * On failure returns the first problem: the Portuguese text of a message naming the field and its
 * bounds (e.g. "maxTrades deve estar entre 1 e 20"; `decodeIssueMessage(message)` gives the
 * translatable message) and the dotted field path. Never throws.
 */
export function parseSettingsUpdate(body: unknown, current: TradingSettings): SettingsUpdateResult {
  if (!isRecord(body)) return { ok: false, message: SETTINGS_BODY_MESSAGE, field: "" };
  const patch = liftPositionSizing(body);
  const merged = deepMerge(current, patch) as Record<string, unknown>;
  if (patch.timeframe === null) delete merged.timeframe;
  const r = tradingSettingsSchema.safeParse(merged);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    return { ok: false, message: issue.message, field: issue.path.join(".") };
  }
  const settings = r.data;
  const styleChosen = isRecord(patch.aiSettings) && patch.aiSettings.tradingStyle !== undefined;
  if (styleChosen) settings.aiSettings.scalper.enabled = settings.aiSettings.tradingStyle === "scalper";
  if (settings.timeframe === undefined) delete settings.timeframe;
  return { ok: true, settings };
}

/**
 * The fixed-lot rule (PRODUCT.md §5): fixed only if lotMode is 'fixed' and fixedLot is a finite
 * number above 0; otherwise automatic sizing.
 */
export function effectiveLotMode(settings: { lotMode?: unknown; fixedLot?: unknown }): LotMode {
  const lot = typeof settings.fixedLot === "string" ? Number(settings.fixedLot) : settings.fixedLot;
  return settings.lotMode === "fixed" && typeof lot === "number" && Number.isFinite(lot) && lot > 0 ? "fixed" : "auto";
}

/**
 * The instruments the bot trades: '*' means every supported instrument (core/instruments.ts
 * SUPPORTED_INSTRUMENTS, the eight pairs of issue 12); the tick then keeps those the broker account
 * offers (core/trading/tick.ts).
 */
export function resolveInstruments(settings: Pick<TradingSettings, "instruments">): string[] {
  return settings.instruments === "*" ? [...SUPPORTED_INSTRUMENTS] : [...settings.instruments];
}

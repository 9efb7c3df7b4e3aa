/**
 * The bench users' trading settings (bench:bots' default, realistic mode; issue 24 "20,000 bots as they
 * will really be"): drawn from a seeded distribution over the fields and bounds of core/settings.ts
 * (PRODUCT.md §3 fields, §5 bounds, §9 defaults), so the same `--seed` and `--bots` give the same users.
 *
 * The distribution (shares of users; each draw independent unless said):
 * - 30 % never open /settings: no `trading_settings` row, the defaults (swing, every pair, automatic
 *   timeframe, automatic lot). The others save a patch onto the defaults:
 * - style: swing 40 %, day 30 %, scalper 15 %, position 15 % (choosing scalper turns `scalper.enabled` on,
 *   as the settings save does); scalpers' `maxHoldSec` 60–900 s (step 5), so their AI closes trades;
 * - pairs: every pair (`*`) 50 %, else 1–4 distinct pairs of the 8 (core/instruments.ts SUPPORTED_INSTRUMENTS),
 *   uniformly;
 * - timeframe: automatic 75 %, else one of M5/M15/M30/H1;
 * - size: automatic lot 80 % (the product's 1 % risk rule capped by `maxLeveragePerTrade`: 5× for 70 %,
 *   else 1, 2, 3, 10, 20 or 30×), fixed lot 20 % (0.01, 0.02, 0.05, 0.1, 0.5 or 1 lot);
 * - risk limits: maxTrades 1–10, maxDailyTrades 5–50, maxDrawdownPct 2–20 (step 0.5), dailyLossLimitPct
 *   1–10 (step 0.5), tpRatio 1–3 and slRatio 0.5–2 (step 0.1), cooldownSec 0–600 (step 5),
 *   dailyLossIncludesUnrealized 25 %, trading day at the New York close 20 %;
 * - news filter off 20 %, else sensitivity low/medium/high; trading hours on 10 % (a 06:00–12:00 to
 *   12:00–23:59 window, Monday–Friday); weekend mode flat 20 %, off 10 %, else the default no_entry.
 * - independently of all that, `tradeShare` of the users (default 30 %) switch "Operar mesmo assim"
 *   (`aiSettings.edgeOverrides`, app/services/trading/edge-overrides.server.ts) on for every pair they
 *   trade: the shipped edge table shows no edge anywhere, so only these users' AI enters trades.
 * Every drawn patch is validated by the product's own `parseSettingsUpdate` (an invalid draw throws).
 * The interval stays the bench's `--interval` for every bot: the product's UI always starts the loop
 * with 60 s (PRODUCT.md: "The UI starts the loop with 60"); other intervals come only through the API.
 */
import { AI_TIMEFRAMES, SUPPORTED_INSTRUMENTS } from "../core/instruments";
import { mulberry32 } from "../core/random";
import { defaultSettings, parseSettingsUpdate, resolveInstruments, type TradingSettings, type TradingStyle } from "../core/settings";

/** One bench user's settings. */
export interface BotProfile {
  /** What the user saves through /settings (undefined: never saved; no row). */
  patch?: Record<string, unknown>;
  /** The pairs whose "Operar mesmo assim" switch the user turned on (saved after `patch`). */
  overrides: string[];
  /** The settings as stored (defaults + patch + overrides), as the product's settings save makes them. */
  settings: TradingSettings;
}

/** Default share of users who override the edge gate for their pairs. */
export const DEFAULT_TRADE_SHARE = 0.3;

/**
 * `n` profiles drawn from `seed` (module docstring: the distribution).
 * @param tradeShare share (0–1) of users with "Operar mesmo assim" on for every pair they trade
 * @throws Error when a drawn patch fails the product's settings validation (a bug in the draw)
 */
export function drawProfiles(n: number, seed: number, tradeShare = DEFAULT_TRADE_SHARE): BotProfile[] {
  const r = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const between = (min: number, max: number, step: number) => Math.round((min + Math.floor(r() * (Math.round((max - min) / step) + 1)) * step) * 1e6) / 1e6;
  const chance = (p: number) => r() < p;
  const out: BotProfile[] = [];
  for (let i = 0; i < n; i++) {
    const untouched = chance(0.3);
    let patch: Record<string, unknown> | undefined;
    if (!untouched) {
      const u = r();
      const style: TradingStyle = u < 0.4 ? "swing" : u < 0.7 ? "day" : u < 0.85 ? "scalper" : "position";
      let instruments: "*" | string[] = "*";
      if (!chance(0.5)) {
        const k = 1 + Math.floor(r() * 4);
        const pool = [...SUPPORTED_INSTRUMENTS] as string[];
        instruments = [];
        for (let j = 0; j < k; j++) instruments.push(pool.splice(Math.floor(r() * pool.length), 1)[0]!);
      }
      const auto = chance(0.75);
      const fixed = chance(0.2);
      const hoursOn = chance(0.1);
      const w = r();
      const newsOn = !chance(0.2);
      patch = {
        lotMode: fixed ? "fixed" : "auto",
        ...(fixed && { fixedLot: pick([0.01, 0.02, 0.05, 0.1, 0.5, 1]) }),
        maxLeveragePerTrade: chance(0.7) ? 5 : pick([1, 2, 3, 10, 20, 30]),
        maxTrades: between(1, 10, 1),
        maxDailyTrades: between(5, 50, 1),
        maxDrawdownPct: between(2, 20, 0.5),
        dailyLossLimitPct: between(1, 10, 0.5),
        tpRatio: between(1, 3, 0.1),
        slRatio: between(0.5, 2, 0.1),
        dailyLossIncludesUnrealized: chance(0.25),
        tradingDayBoundary: chance(0.2) ? "ny_close" : "local_midnight",
        tradingHours: hoursOn
          ? { enabled: true, start: `${String(between(6, 12, 1)).padStart(2, "0")}:00`, end: `${String(between(12, 23, 1)).padStart(2, "0")}:59`, days: [1, 2, 3, 4, 5] }
          : { enabled: false },
        weekend: { mode: w < 0.2 ? "flat" : w < 0.3 ? "off" : "no_entry" },
        instruments,
        ...(!auto && { timeframe: pick(AI_TIMEFRAMES) }),
        aiSettings: {
          tradingStyle: style,
          autoTimeframeSelection: auto,
          cooldownSec: between(0, 600, 5),
          ...(style === "scalper" && { scalper: { maxHoldSec: between(60, 900, 5) } }),
          news: newsOn ? { enabled: true, sensitivity: pick(["low", "medium", "high"] as const) } : { enabled: false },
        },
      };
    }
    const trades = chance(tradeShare);
    const base = patch ? saved(patch, defaultSettings()) : defaultSettings();
    const overrides = trades ? resolveInstruments(base) : [];
    const settings = overrides.length ? saved({ aiSettings: { edgeOverrides: overrides } }, base) : base;
    out.push({ ...(patch && { patch }), overrides, settings });
  }
  return out;
}

/** `patch` saved onto `current` by the product's settings validation. @throws Error when it refuses it */
function saved(patch: Record<string, unknown>, current: TradingSettings): TradingSettings {
  const res = parseSettingsUpdate(patch, current);
  if (!res.ok) throw new Error(`perfil inválido (${res.field}): ${res.message}`);
  return res.settings;
}

/** A one-line summary of the drawn profiles (styles, pairs, overrides) for the bench's output. */
export function describeProfiles(profiles: BotProfile[]): string {
  const n = profiles.length || 1;
  const share = (k: number) => `${((k / n) * 100).toFixed(0)} %`;
  const styles = new Map<string, number>();
  const pairs = new Map<string, number>();
  let saved = 0;
  let all = 0;
  let overriding = 0;
  let fixedTf = 0;
  for (const p of profiles) {
    if (p.patch) saved++;
    const s = p.settings;
    styles.set(s.aiSettings.tradingStyle, (styles.get(s.aiSettings.tradingStyle) ?? 0) + 1);
    if (s.instruments === "*") all++;
    for (const i of resolveInstruments(s)) pairs.set(i, (pairs.get(i) ?? 0) + 1);
    if (p.overrides.length) overriding++;
    if (!s.aiSettings.autoTimeframeSelection && s.timeframe) fixedTf++;
  }
  return [
    `settings saved ${share(saved)} (the rest on defaults)`,
    `styles ${[...styles].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${share(v)}`).join(", ")}`,
    `every pair ${share(all)}`,
    `bots per pair ${SUPPORTED_INSTRUMENTS.map((i) => `${i} ${pairs.get(i) ?? 0}`).join(", ")}`,
    `manual timeframe ${share(fixedTf)}`,
    `"Operar mesmo assim" on their pairs ${share(overriding)}`,
  ].join("; ");
}

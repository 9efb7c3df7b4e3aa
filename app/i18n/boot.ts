/**
 * Namespaces the first load of the hero (`/`, logged in) renders: the root chrome (header, dock, bell, error
 * screen), the hero's own screens, and every namespace whose messages (Msg, ADR 0007) the hero can show —
 * core's and the app's api/bot/guard/plans — and the AI's report card (`research`, issue 21). The browser loads these before hydrating `/`; any other
 * page's first load loads its whole language (issue 13: the hero's JavaScript ≤ 150 kB gzip; ADR 0029).
 * Read by app/i18n/index.ts and vite.config.ts (which puts them in one chunk per language).
 */
export const BOOT_NAMESPACES: readonly string[] = [
  "common", "hero", "notifications", "live", "news", "api", "bot", "guard", "plans",
  "preflight", "risk", "engine", "broker", "validation", "research", "kill-switch",
];

/**
 * The browser chunk of a catalogue file (`app|core/i18n/locales/<lang>/<ns>.json`): `i18n-<lang>` for the boot
 * namespaces, `i18n-<lang>-more` for the rest; core's files apart (`i18n-core-<lang>[-more]`) because
 * core/i18n/catalog.ts (zod messages in forms) imports them statically for every language. Undefined for any
 * other module (Rollup decides).
 */
export function catalogueChunk(id: string): string | undefined {
  const m = /\/(app|core)\/i18n\/locales\/(pt|en|es)\/([\w-]+)\.json$/.exec(id);
  if (!m) return undefined;
  const base = m[1] === "core" ? `i18n-core-${m[2]}` : `i18n-${m[2]}`;
  return BOOT_NAMESPACES.includes(m[3]!) ? base : `${base}-more`;
}

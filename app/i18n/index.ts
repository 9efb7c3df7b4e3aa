/**
 * Internationalisation through one library (i18next): Portuguese by default, the user's
 * `preferences.language` (pt, en, es) switches every string (PRODUCT.md §3 User preferences).
 * Strings live in `locales/<lang>/<namespace>.json`, one namespace per area (common, auth, hero…);
 * a key missing in en/es falls back to pt. Instances are created synchronously (resources are
 * bundled), so server render and hydration agree.
 */
import i18next, { type i18n } from "i18next";
import { CORE_RESOURCES, formatMsg, type Msg } from "../../core/i18n/message-catalog";

export const SUPPORTED_LANGUAGES = ["pt", "en", "es"] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "pt";

/** BCP 47 locale used by Intl for each language (PRODUCT.md §9: pt-BR by default). */
export const INTL_LOCALE: Record<Language, string> = { pt: "pt-BR", en: "en-US", es: "es-ES" };

const files = import.meta.glob<{ default: Record<string, unknown> }>("./locales/*/*.json", { eager: true });
const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [file, mod] of Object.entries(files)) {
  const m = /\.\/locales\/(\w+)\/([\w-]+)\.json$/.exec(file);
  if (!m) continue;
  (resources[m[1]!] ??= {})[m[2]!] = mod.default;
}
// Messages produced by core (engine reasons, risk verdicts, broker errors, validation): ADR 0007.
for (const [lng, namespaces] of Object.entries(CORE_RESOURCES)) Object.assign((resources[lng] ??= {}), namespaces);
export const NAMESPACES = [...new Set(Object.values(resources).flatMap((r) => Object.keys(r)))];

/** A supported language from any input (unknown → pt). */
export function toLanguage(value: unknown): Language {
  return SUPPORTED_LANGUAGES.includes(value as Language) ? (value as Language) : DEFAULT_LANGUAGE;
}

/** A ready i18next instance for a language (synchronous). */
export function createI18n(language: unknown): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: toLanguage(language),
    fallbackLng: DEFAULT_LANGUAGE,
    resources,
    ns: NAMESPACES,
    defaultNS: "common",
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

const cache = new Map<Language, i18n>();
/** A shared instance per language (server: e-mails and API messages; client: the provider). */
export function i18nFor(language: unknown): i18n {
  const lng = toLanguage(language);
  let inst = cache.get(lng);
  if (!inst) {
    inst = createI18n(lng);
    cache.set(lng, inst);
  }
  return inst;
}

/**
 * The text of a stored or thrown message (core or app catalogs) in a language; plain strings pass
 * through unchanged (ADR 0007).
 */
export function translateMsg(m: Msg | string, language: unknown): string {
  const inst = i18nFor(language);
  return formatMsg((key, options) => inst.t(key, options) as string, m);
}

/**
 * Internationalisation through one library (i18next): Portuguese by default, the user's
 * `preferences.language` (pt, en, es) switches every string (PRODUCT.md §3 User preferences).
 * Strings live in `locales/<lang>/<namespace>.json`, one namespace per area (common, auth, hero…);
 * a key missing in en/es falls back to pt. Instances are created synchronously over the loaded
 * catalogues (the server bundles all; the browser loads its language before hydrating), so server
 * render and hydration agree.
 */
import i18next, { type i18n } from "i18next";
import { formatMsg, type Msg } from "../../core/i18n/message";

export const SUPPORTED_LANGUAGES = ["pt", "en", "es"] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "pt";

/** BCP 47 locale used by Intl for each language (PRODUCT.md §9: pt-BR by default). */
export const INTL_LOCALE: Record<Language, string> = { pt: "pt-BR", en: "en-US", es: "es-ES" };

/** One language's catalogues module (app/i18n/catalogues/<lang>.ts): screen and core JSON files by path. */
type CatalogueModule = { app: Record<string, Record<string, unknown>>; core: Record<string, Record<string, unknown>> };

/** namespace → nested keys, for one language. */
type Namespaces = Record<string, Record<string, unknown>>;

/** A catalogues module as i18next resources: the namespace is the file name (screens: app/i18n/locales, core messages: ADR 0007). */
function namespacesOf(mod: CatalogueModule): Namespaces {
  const out: Namespaces = {};
  for (const files of [mod.app, mod.core])
    for (const [file, json] of Object.entries(files)) {
      const m = /\/([\w-]+)\.json$/.exec(file);
      if (m) out[m[1]!] = json;
    }
  return out;
}

const resources: Record<string, Namespaces> = {};
// The server (and the unit tests) hold every language; the browser loads its own language's chunk (and pt,
// the fallback) before hydrating (entry.client.tsx `loadLanguages`): issue 13, the catalogues of all three
// languages were a third of the hero's JavaScript.
if (import.meta.env.SSR !== false) {
  const all = import.meta.glob<CatalogueModule>("./catalogues/*.ts", { eager: true });
  for (const [file, mod] of Object.entries(all)) resources[/(\w+)\.ts$/.exec(file)![1]!] = namespacesOf(mod);
}
const lazyCatalogues = import.meta.glob<CatalogueModule>("./catalogues/*.ts");

/** Whether a language's catalogues are loaded (always on the server). */
export function languageLoaded(language: unknown): boolean {
  return toLanguage(language) in resources;
}

/**
 * Loads the catalogues of `languages` (browser: one chunk per language) and adds them to the instances
 * already made. Resolves at once for loaded languages. @throws when a chunk cannot be fetched
 */
export async function loadLanguages(...languages: unknown[]): Promise<void> {
  await Promise.all(
    languages.map(async (language) => {
      const lng = toLanguage(language);
      if (resources[lng]) return;
      const mod = await lazyCatalogues[`./catalogues/${lng}.ts`]!();
      resources[lng] ??= namespacesOf(mod);
      for (const inst of cache.values()) {
        for (const [ns, keys] of Object.entries(resources[lng])) inst.addResourceBundle(lng, ns, keys, true, false);
        // languageChanged re-renders the screens that use the instance (react-i18next binds to it).
        void inst.changeLanguage(inst.language);
      }
    }),
  );
}

/** The language of a page from its `<html lang>` (INTL_LOCALE), pt when unknown. */
export function languageOfLocale(locale: string | null | undefined): Language {
  return SUPPORTED_LANGUAGES.find((l) => INTL_LOCALE[l] === locale) ?? DEFAULT_LANGUAGE;
}

/** A supported language from any input (unknown → pt). */
export function toLanguage(value: unknown): Language {
  return SUPPORTED_LANGUAGES.includes(value as Language) ? (value as Language) : DEFAULT_LANGUAGE;
}

/**
 * A ready i18next instance for a language (synchronous) over the loaded catalogues (in the browser a
 * language not loaded yet shows its pt fallback until `loadLanguages` adds it).
 */
export function createI18n(language: unknown): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: toLanguage(language),
    fallbackLng: DEFAULT_LANGUAGE,
    resources,
    ns: [...new Set(Object.values(resources).flatMap((r) => Object.keys(r)))],
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

/**
 * Internationalisation through one library (i18next): Portuguese by default, the user's
 * `preferences.language` (pt, en, es) switches every string (PRODUCT.md §3 User preferences).
 * Strings live in `locales/<lang>/<namespace>.json`, one namespace per area (common, auth, hero…);
 * a key missing in en/es falls back to pt. Instances are created synchronously over the loaded
 * catalogues (the server bundles all; the browser loads what the page renders before hydrating —
 * for the hero only the boot namespaces, ADR 0029 — and the rest on demand), so server render and
 * hydration agree.
 */
import i18next, { type BackendModule, type i18n } from "i18next";
import { formatMsg, type Msg } from "../../core/i18n/message";
import { addFormatters } from "../../core/i18n/formatters";
import { BOOT_NAMESPACES } from "./boot";

export { BOOT_NAMESPACES };

export const SUPPORTED_LANGUAGES = ["pt", "en", "es"] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "pt";

/** BCP 47 locale used by Intl for each language (PRODUCT.md §9: pt-BR by default). */
export const INTL_LOCALE: Record<Language, string> = { pt: "pt-BR", en: "en-US", es: "es-ES" };

/** namespace → nested keys, for one language. */
type Namespaces = Record<string, Record<string, unknown>>;

/** Route ids (Remix) whose first load needs only BOOT_NAMESPACES; every other route loads all. */
const BOOT_ROUTES = new Set(["root", "routes/_index"]);

/** `<lang>/<namespace>` of a catalogue file path (screens: app/i18n/locales, core messages: ADR 0007). */
function catalogueKey(file: string): string | null {
  const m = /\/(pt|en|es)\/([\w-]+)\.json$/.exec(file);
  return m ? `${m[1]}/${m[2]}` : null;
}

const resources: Record<string, Namespaces> = {};
// The server (and the unit tests) hold every namespace of every language. The browser loads namespace files
// on demand (one module each; vite.config.ts groups each language's boot and other namespaces into two chunks):
// before hydrating, `loadNamespaces` (entry.client.tsx); afterwards, a screen whose namespace is missing suspends
// (react-i18next) while `catalogueBackend` loads the rest of its language.
if (import.meta.env.SSR !== false) {
  const all = import.meta.glob<Record<string, unknown>>(["./locales/*/*.json", "../../core/i18n/locales/*/*.json"], { eager: true, import: "default" });
  for (const [file, json] of Object.entries(all)) {
    const key = catalogueKey(file);
    if (!key) continue;
    const [lng, ns] = key.split("/") as [string, string];
    (resources[lng] ??= {})[ns] = json;
  }
}
const lazyFiles = import.meta.glob<Record<string, unknown>>(["./locales/*/*.json", "../../core/i18n/locales/*/*.json"], { import: "default" });
const loaders = new Map<string, () => Promise<Record<string, unknown>>>();
for (const [file, load] of Object.entries(lazyFiles)) {
  const key = catalogueKey(file);
  if (key) loaders.set(key, load);
}

/** Every namespace with a catalogue file in `language` (pt when unknown). */
export function namespacesOf(language: unknown): string[] {
  const prefix = `${toLanguage(language)}/`;
  return [...loaders.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
}

/** The namespaces a first load of the given Remix route ids needs: BOOT_NAMESPACES for the hero, else all. */
export function namespacesForRoutes(routeIds: readonly string[], language: unknown): readonly string[] {
  return routeIds.every((id) => BOOT_ROUTES.has(id)) ? BOOT_NAMESPACES : namespacesOf(language);
}

/** Whether a namespace of a language is loaded (always on the server). */
export function namespaceLoaded(language: unknown, ns: string): boolean {
  return !!resources[toLanguage(language)]?.[ns];
}

/**
 * Loads `namespaces` of `languages` (browser: their chunks; resolves at once for loaded ones) into the shared
 * resources every instance reads, and tells the instances (store `added`: react-i18next re-renders).
 * Unknown namespaces are skipped. @throws when a chunk cannot be fetched
 */
export async function loadNamespaces(languages: readonly unknown[], namespaces: readonly string[]): Promise<void> {
  const added: [Language, string][] = [];
  await Promise.all(
    [...new Set(languages.map(toLanguage))].flatMap((lng) =>
      namespaces.map(async (ns) => {
        const load = loaders.get(`${lng}/${ns}`);
        if (namespaceLoaded(lng, ns) || !load) return;
        const json = await load();
        if (namespaceLoaded(lng, ns)) return;
        (resources[lng] ??= {})[ns] = json;
        added.push([lng, ns]);
      }),
    ),
  );
  // The instances' stores read `resources` itself; adding an empty bundle registers the namespace and emits
  // the store's `added` event (react-i18next re-renders, bindI18nStore) without copying the keys again.
  for (const inst of cache.values()) for (const [lng, ns] of added) inst.addResourceBundle(lng, ns, {}, true, false);
}

/** Loads every namespace of `language` and of pt (its fallback). @throws when a chunk cannot be fetched */
export function loadLanguages(...languages: unknown[]): Promise<void> {
  const all = [...new Set([...languages.map(toLanguage), DEFAULT_LANGUAGE])];
  return Promise.all(all.map((l) => loadNamespaces([l], namespacesOf(l)))).then(() => undefined);
}

/**
 * i18next backend (browser): a namespace asked for and not loaded (a screen rendered after navigation or a
 * language switch) loads every namespace of that language, so the next screens never wait again. The
 * screen suspends meanwhile; Remix navigations run in a transition, so the previous page stays shown.
 */
const catalogueBackend: BackendModule = {
  type: "backend",
  init() {},
  read(language, namespace, callback) {
    loadNamespaces([language], [namespace, ...namespacesOf(language)]).then(
      () => callback(null, resources[toLanguage(language)]?.[namespace] ?? {}),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), false),
    );
  },
};

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
  const browser = import.meta.env.SSR === false;
  if (browser) instance.use(catalogueBackend);
  void instance.init({
    lng: toLanguage(language),
    fallbackLng: DEFAULT_LANGUAGE,
    resources,
    // Browser: what is loaded may be part of a language; missing namespaces come from catalogueBackend.
    partialBundledLanguages: browser,
    ns: [...new Set(Object.values(resources).flatMap((r) => Object.keys(r)))],
    defaultNS: "common",
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
    // A namespace loaded later (loadNamespaces) re-renders the screens that use it.
    react: { bindI18nStore: "added" },
  });
  addFormatters(instance);
  if (!browser) memoisePlainLookups(instance);
  return instance;
}

/** Option names every screen's lookup carries (react-i18next's and i18next's own `getFixedT` add them). */
const FIXED_OPTIONS = new Set(["lng", "lngs", "ns", "keyPrefix"]);
/** Bound on the plain lookups memoised: the keys come from the code, far fewer than this; past it they run unmemoised. */
const PLAIN_LIMIT = 20_000;
/** Bound on the lookups with values (counts, names, figures) memoised; the oldest leaves first. */
const VALUES_LIMIT = 5_000;

/**
 * Server only (issue 24: i18next's `translate` was ~9 % of a page's CPU): a lookup whose options are all
 * strings, numbers or booleans (the language, namespace and key prefix a screen's fixed `t` adds, and values
 * to interpolate or a plural count) answers from a per-instance memo of what i18next answered, keyed by the
 * key, every option and the instance's language. i18next's answer depends on nothing else here: the server's
 * catalogues never change after boot and the formatters (core/i18n/formatters.ts) are pure. Any other call
 * (an object or function among the options, an array of keys) goes to i18next as before. Only strings are
 * memoised.
 */
function memoisePlainLookups(instance: i18n): void {
  const t = instance.t.bind(instance) as unknown as (...args: unknown[]) => unknown;
  const plain = new Map<string, string>();
  const withValues = new Map<string, string>();
  const memoised = (key: unknown, opts?: unknown, ...rest: unknown[]): unknown => {
    if (typeof key !== "string" || rest.length > 0 || (opts !== undefined && (typeof opts !== "object" || opts === null))) return t(key, opts, ...rest);
    let k = `${instance.language}\u0000${key}`;
    let values = false;
    if (opts) {
      const o = opts as Record<string, unknown>;
      for (const name in o) {
        const v = o[name];
        if (v === undefined || v === null) continue;
        if (FIXED_OPTIONS.has(name)) k += `\u0000${name}=${Array.isArray(v) ? v.join(",") : String(v)}`;
        else if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") {
          k += `\u0000${name}=${JSON.stringify(v)}`; // JSON: a value's own NUL or quotes cannot fake another key
          values = true;
        } else return t(key, opts);
      }
    }
    const memo = values ? withValues : plain;
    const hit = memo.get(k);
    if (hit !== undefined) return hit;
    const out = t(key, opts);
    if (typeof out !== "string") return out;
    if (values) {
      if (withValues.size >= VALUES_LIMIT) withValues.delete(withValues.keys().next().value as string);
      withValues.set(k, out);
    } else if (plain.size < PLAIN_LIMIT) plain.set(k, out);
    return out;
  };
  instance.t = memoised as unknown as i18n["t"];
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

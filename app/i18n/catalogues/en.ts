/** The "en" catalogues (screens + core messages), one chunk: the browser loads only its language (issue 13, app/i18n/index.ts). */
export const app = import.meta.glob<Record<string, unknown>>("../locales/en/*.json", { eager: true, import: "default" });
export const core = import.meta.glob<Record<string, unknown>>("../../../core/i18n/locales/en/*.json", { eager: true, import: "default" });

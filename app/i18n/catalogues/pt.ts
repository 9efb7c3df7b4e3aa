/** The "pt" catalogues (screens + core messages), one chunk: the browser loads only its language (issue 13, app/i18n/index.ts). */
export const app = import.meta.glob<Record<string, unknown>>("../locales/pt/*.json", { eager: true, import: "default" });
export const core = import.meta.glob<Record<string, unknown>>("../../../core/i18n/locales/pt/*.json", { eager: true, import: "default" });

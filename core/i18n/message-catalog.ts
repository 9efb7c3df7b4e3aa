/** Message helpers and core catalogs without core's own i18next instances (for app/i18n). */
export * from "./message";
export { CORE_RESOURCES } from "./catalog";

/**
 * Which catalogues a page loads (ADR 0029): the hero's boot namespaces exist in every language, a first
 * load of the hero asks for them only and any other page for its whole language, and the browser chunks
 * group each language's boot namespaces apart from the rest (core's files in their own chunks).
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { catalogueChunk } from "../../../app/i18n/boot";
import { BOOT_NAMESPACES, i18nFor, loadNamespaces, namespaceLoaded, namespacesForRoutes, namespacesOf, SUPPORTED_LANGUAGES } from "../../../app/i18n";

const root = path.resolve(import.meta.dirname, "../../..");
const files = (dir: string) => readdirSync(path.join(root, dir)).filter((f) => f.endsWith(".json")).map((f) => f.replace(/\.json$/, ""));

describe("catalogue namespaces", () => {
  it("every language has the same namespaces: the app's and core's files", () => {
    const pt = [...files("app/i18n/locales/pt"), ...files("core/i18n/locales/pt")].sort();
    for (const lng of SUPPORTED_LANGUAGES) expect(namespacesOf(lng).sort()).toEqual(pt);
  });

  it("each boot namespace has a catalogue file in pt, en and es", () => {
    for (const lng of SUPPORTED_LANGUAGES) for (const ns of BOOT_NAMESPACES) expect(namespacesOf(lng)).toContain(ns);
  });

  it("the hero (root + routes/_index) needs the boot namespaces; any other page all of its language", () => {
    expect(namespacesForRoutes(["root", "routes/_index"], "pt")).toEqual(BOOT_NAMESPACES);
    expect(namespacesForRoutes(["root", "routes/dashboard"], "en")).toEqual(namespacesOf("en"));
    expect(namespacesForRoutes(["root", "routes/dashboard"], "en")).toContain("dashboard");
    expect(BOOT_NAMESPACES).not.toContain("dashboard");
  });

  it("the server holds every namespace of every language (loading is a no-op there)", async () => {
    await loadNamespaces(["en", "es"], ["dashboard", "nope"]);
    for (const lng of SUPPORTED_LANGUAGES) for (const ns of namespacesOf(lng)) expect(namespaceLoaded(lng, ns)).toBe(true);
    expect(i18nFor("es").t("meta", { ns: "hero" })).not.toBe("meta");
  });
});

describe("catalogueChunk (vite.config.ts manualChunks)", () => {
  it("groups a language's boot namespaces apart from the rest, core's files in their own chunks", () => {
    expect(catalogueChunk("/work/app/i18n/locales/pt/hero.json")).toBe("i18n-pt");
    expect(catalogueChunk("/work/app/i18n/locales/en/dashboard.json")).toBe("i18n-en-more");
    expect(catalogueChunk("/work/core/i18n/locales/es/engine.json")).toBe("i18n-core-es");
    expect(catalogueChunk("/work/core/i18n/locales/pt/admin-users.json")).toBe("i18n-core-pt-more");
  });

  it("leaves every other module to Rollup", () => {
    expect(catalogueChunk("/work/app/routes/_index.tsx")).toBeUndefined();
    expect(catalogueChunk("/work/node_modules/i18next/dist/esm/i18next.js")).toBeUndefined();
    expect(catalogueChunk("/work/app/i18n/locales/fr/hero.json")).toBeUndefined();
  });
});

/** The /settings form schema (derived from core/settings.ts) and its HTML bounds agree with PRODUCT.md §5. */
import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, parseSettingsUpdate } from "../../../core/settings";
import { BOOLEAN_FIELDS, getPath, NUMBER_FIELDS, settingsFormSchema, settingsPatchFromForm, showScalperBlock } from "../../../app/lib/settings-form";

/** The form as the page renders it with the defaults (checkboxes only when ticked). */
function defaultForm(): FormData {
  const f = new FormData();
  f.set("lotMode", "auto");
  f.set("instruments", "*");
  f.set("timeframe", "");
  f.set("aiSettings.tradingStyle", "swing");
  f.set("aiSettings.news.sensitivity", "medium");
  for (const name of Object.keys(NUMBER_FIELDS)) f.set(name, String(getPath(DEFAULT_SETTINGS, name)));
  for (const name of BOOLEAN_FIELDS) if (getPath(DEFAULT_SETTINGS, name) === true) f.set(name, "on");
  f.set("preferences.language", "pt");
  f.set("preferences.timezone", "America/Sao_Paulo");
  return f;
}
const parse = (f: FormData) => parseWithZod(f, { schema: settingsFormSchema, disableAutoCoercion: true });
/** The error map of a failed parse (empty on success). */
const errorsOf = (f: FormData) => {
  const r = parse(f);
  return r.status === "error" ? (r.error ?? {}) : {};
};

describe("settingsFormSchema", () => {
  it("parses the default form back to the defaults (absent checkbox = false)", () => {
    const r = parse(defaultForm());
    expect(r.status).toBe("success");
    if (r.status !== "success") return;
    const { preferences, ...settings } = r.value;
    expect(preferences).toEqual({ language: "pt", timezone: "America/Sao_Paulo" });
    expect(settings).toEqual(DEFAULT_SETTINGS);
  });
  it("rejects out-of-range input with the same Portuguese message as the server", () => {
    const f = defaultForm();
    f.set("maxTrades", "25");
    expect(parse(f).status).toBe("error");
    expect(errorsOf(f).maxTrades).toEqual(["maxTrades deve estar entre 1 e 20"]);
    const server = parseSettingsUpdate({ maxTrades: "25" }, structuredClone(DEFAULT_SETTINGS) as never);
    expect(server).toMatchObject({ ok: false, message: "maxTrades deve estar entre 1 e 20" });
  });
  it("rejects an unknown language", () => {
    const f = defaultForm();
    f.set("preferences.language", "fr");
    expect(errorsOf(f)["preferences.language"]).toEqual(["language deve ser pt, en ou es"]);
  });
  it("HTML bounds accept the minimum and maximum and the schema rejects one step outside", () => {
    for (const [name, rule] of Object.entries(NUMBER_FIELDS)) {
      if (name.endsWith("impulseThreshold")) continue; // clamped to 0–1, never rejected (PRODUCT.md §5)
      const at = (v: number) => {
        const f = defaultForm();
        f.set(name, String(v));
        return parse(f).status;
      };
      expect(at(rule.min), name).toBe("success");
      const step = typeof rule.step === "number" ? rule.step : 0.5;
      expect(at(Math.round((rule.min - step) * 1000) / 1000), name).toBe("error");
      if (rule.max !== undefined) {
        expect(at(rule.max), name).toBe("success");
        expect(at(Math.round((rule.max + step) * 1000) / 1000), name).toBe("error");
      }
    }
  });
});

describe("settingsPatchFromForm", () => {
  it("leaves the style out when unchanged (checkbox honoured) and clears an empty manual timeframe", () => {
    const f = defaultForm();
    f.set("aiSettings.scalper.enabled", "on");
    const r = parse(f);
    if (r.status !== "success") throw new Error("form inválido");
    const patch = settingsPatchFromForm(r.value, DEFAULT_SETTINGS);
    expect(patch.timeframe).toBeNull();
    expect((patch.aiSettings as Record<string, unknown>).tradingStyle).toBeUndefined();
    const saved = parseSettingsUpdate(patch, structuredClone(DEFAULT_SETTINGS) as never);
    expect(saved.ok && saved.settings.aiSettings.scalper.enabled).toBe(true);
  });
  it("a changed style decides scalper.enabled (PRODUCT.md §4)", () => {
    const f = defaultForm();
    f.set("aiSettings.tradingStyle", "scalper");
    const r = parse(f);
    if (r.status !== "success") throw new Error("form inválido");
    const saved = parseSettingsUpdate(settingsPatchFromForm(r.value, DEFAULT_SETTINGS), structuredClone(DEFAULT_SETTINGS) as never);
    expect(saved.ok && saved.settings.aiSettings.scalper.enabled).toBe(true);
    expect(showScalperBlock("day", false)).toBe(false);
    expect(showScalperBlock("day", true)).toBe(true);
    expect(showScalperBlock("scalper", false)).toBe(true);
  });
});

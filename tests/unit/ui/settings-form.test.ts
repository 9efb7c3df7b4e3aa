/** The /settings form schema (derived from core/settings.ts) and its HTML bounds agree with PRODUCT.md §5. */
import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { renderMsg } from "../../../core/i18n";
import { decodeIssueMessage } from "../../../core/i18n/zod-message";
import { DEFAULT_SETTINGS, parseSettingsUpdate } from "../../../core/settings";
import {
  BOOLEAN_FIELDS,
  edgeOverrideFormSchema,
  getPath,
  NUMBER_FIELDS,
  pushTopicsFormSchema,
  settingsFormSchema,
  settingsPatchFromForm,
  showScalperBlock,
} from "../../../app/lib/settings-form";

/** The form as the page renders it with the defaults (checkboxes only when ticked). */
function defaultForm(): FormData {
  const f = new FormData();
  f.set("lotMode", "auto");
  f.set("instruments", "*");
  f.set("timeframe", "");
  f.set("aiSettings.tradingStyle", "swing");
  f.set("aiSettings.news.sensitivity", "medium");
  f.set("tradingHours.start", DEFAULT_SETTINGS.tradingHours.start);
  f.set("tradingHours.end", DEFAULT_SETTINGS.tradingHours.end);
  for (const day of DEFAULT_SETTINGS.tradingHours.days) f.append("tradingHours.days", String(day));
  f.set("weekend.mode", DEFAULT_SETTINGS.weekend.mode);
  f.set("tradingDayBoundary", DEFAULT_SETTINGS.tradingDayBoundary);
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
    // The per-pair edge overrides have their own section and confirmation (edge-overrides.tsx): the main
    // form does not carry them, and saving it keeps the stored list.
    const { edgeOverrides, ...aiDefaults } = DEFAULT_SETTINGS.aiSettings;
    expect(edgeOverrides).toEqual([]);
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, aiSettings: aiDefaults });
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

describe("trading hours, weekend and unrealized loss in the form (issue 7)", () => {
  it("parses times, ticked weekdays (one value each), the weekend mode and the checkboxes", () => {
    const f = defaultForm();
    f.set("tradingHours.enabled", "on");
    f.set("tradingHours.start", "22:00");
    f.set("tradingHours.end", "06:00:00"); // some browsers post seconds
    f.delete("tradingHours.days");
    for (const day of ["5", "1", "3"]) f.append("tradingHours.days", day);
    f.set("weekend.mode", "flat");
    f.set("weekend.minutesBeforeClose", "30");
    f.set("dailyLossIncludesUnrealized", "on");
    const r = parse(f);
    expect(r.status).toBe("success");
    if (r.status !== "success") return;
    expect(r.value.tradingHours).toEqual({ enabled: true, start: "22:00", end: "06:00", days: [1, 3, 5] });
    expect(r.value.weekend).toEqual({ mode: "flat", minutesBeforeClose: 30 });
    expect(r.value.dailyLossIncludesUnrealized).toBe(true);
    // and the server saves what the form parsed
    const saved = parseSettingsUpdate(settingsPatchFromForm(r.value, DEFAULT_SETTINGS), structuredClone(DEFAULT_SETTINGS) as never);
    expect(saved.ok && saved.settings.tradingHours).toEqual({ enabled: true, start: "22:00", end: "06:00", days: [1, 3, 5] });
    expect(saved.ok && saved.settings.weekend.mode).toBe("flat");
  });

  it("a single ticked day posts a string; unticked checkboxes are false", () => {
    const f = defaultForm();
    f.set("tradingHours.days", "7");
    const r = parse(f);
    expect(r.status === "success" && r.value.tradingHours).toEqual({ ...DEFAULT_SETTINGS.tradingHours, days: [7] });
    expect(r.status === "success" && r.value.dailyLossIncludesUnrealized).toBe(false);
  });

  it.each([
    ["tradingHours.start", "24:00", "tradingHours.start deve ser um horário entre 00:00 e 23:59 (HH:MM)"],
    ["tradingHours.end", "9h", "tradingHours.end deve ser um horário entre 00:00 e 23:59 (HH:MM)"],
    ["tradingHours.end", "", "tradingHours.end deve ser um horário entre 00:00 e 23:59 (HH:MM)"],
    ["weekend.mode", "sometimes", "weekend.mode deve ser um de flat, no_entry, off"],
    ["weekend.minutesBeforeClose", "725", "minutesBeforeClose deve estar entre 0 e 720"],
    ["weekend.minutesBeforeClose", "7", "minutesBeforeClose deve variar em passos de 5"],
    ["tradingHours.days", "8", "tradingHours.days deve conter dias da semana de 1 (segunda) a 7 (domingo)"],
  ])("%s = %j is rejected with the schema's message", (name, value, message) => {
    const f = defaultForm();
    f.set(name, value);
    expect(errorsOf(f)[name]).toEqual([message]);
  });

  it("the new messages read in en and es", () => {
    const f = defaultForm();
    f.set("tradingHours.start", "25:00");
    const m = decodeIssueMessage(errorsOf(f)["tradingHours.start"]![0]!);
    expect(typeof m === "object" && [renderMsg(m, "en"), renderMsg(m, "es")]).toEqual([
      "tradingHours.start must be a time between 00:00 and 23:59 (HH:MM)",
      "tradingHours.start debe ser una hora entre 00:00 y 23:59 (HH:MM)",
    ]);
    const g = defaultForm();
    g.delete("tradingHours.days");
    const d = decodeIssueMessage(errorsOf(g)["tradingHours.days"]![0]!);
    expect(typeof d === "object" && [renderMsg(d, "en"), renderMsg(d, "es")]).toEqual([
      "tradingHours.days must have at least one weekday",
      "tradingHours.days debe tener al menos un día de la semana",
    ]);
  });

  it("no ticked weekday is rejected (at least one day)", () => {
    const f = defaultForm();
    f.delete("tradingHours.days");
    expect(errorsOf(f)["tradingHours.days"]).toEqual(["tradingHours.days deve ter pelo menos um dia da semana"]);
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

describe("the settings side forms (edge switch, push topics)", () => {
  it("edge switch: the pair as posted, the flags on only for \"1\", no pair when it is not a text", () => {
    expect(edgeOverrideFormSchema.parse({ instrument: "EUR_USD", enable: "1", confirmed: "1" })).toEqual({ instrument: "EUR_USD", enable: true, confirmed: true, cancel: false });
    expect(edgeOverrideFormSchema.parse({ instrument: "GBP_USD", enable: "0", cancel: "1" })).toEqual({ instrument: "GBP_USD", enable: false, confirmed: false, cancel: true });
    expect(edgeOverrideFormSchema.parse({}).instrument).toBe("");
    expect(edgeOverrideFormSchema.parse({ instrument: new Blob(["x"]) }).instrument).toBe("");
  });

  it("push topics: every ticked value (none is an empty list); a value that is not a text reads as an unknown topic", () => {
    const f = new FormData();
    f.append("pushTopics", "trades");
    f.append("pushTopics", "risk");
    expect(pushTopicsFormSchema.parse({ pushTopics: f.getAll("pushTopics") })).toEqual({ pushTopics: ["trades", "risk"] });
    expect(pushTopicsFormSchema.parse({ pushTopics: new FormData().getAll("pushTopics") })).toEqual({ pushTopics: [] });
    expect(pushTopicsFormSchema.parse({ pushTopics: [new Blob(["x"])] })).toEqual({ pushTopics: [""] });
  });
});

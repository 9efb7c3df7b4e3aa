/**
 * Plan display (PRODUCT.md §3 Plan, §9; issue 9): cents to money (BRL the Brazilian way, every other
 * currency the US way, whatever the reader's language), the interval in the reader's language
 * ('mês'/'ano', month/year, mes/año; '3 meses' above 1), the default plan; and the `plans` and
 * `legal` catalogs (the /termos and /privacidade pages) with the same keys and parameters in pt/en/es.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../../app/i18n";
import { defaultPlan, formatPlanInterval, formatPlanPrice, formatPlanPricePerInterval, planPriceLocale, toPlanInterval } from "../../../app/lib/plans";

describe("formatPlanPrice", () => {
  it("BRL in pt-BR: 9700 → 'R$ 97,00'", () => {
    expect(formatPlanPrice(9700, "BRL")).toBe("R$ 97,00");
    expect(formatPlanPrice(9700)).toBe("R$ 97,00"); // default currency BRL
    expect(formatPlanPrice(9700, "brl")).toBe("R$ 97,00");
    expect(formatPlanPrice(123456789, "BRL")).toBe("R$ 1.234.567,89");
    expect(formatPlanPrice(0, "BRL")).toBe("R$ 0,00");
    expect(formatPlanPrice(5, "BRL")).toBe("R$ 0,05");
  });

  it("other currencies in en-US", () => {
    expect(formatPlanPrice(1999, "USD")).toBe("$19.99");
    expect(formatPlanPrice(500, "EUR")).toBe("€5.00");
    expect(formatPlanPrice(1234567, "USD")).toBe("$12,345.67");
    expect(planPriceLocale("USD")).toBe("en-US");
    expect(planPriceLocale("BRL")).toBe("pt-BR");
    expect(planPriceLocale(null)).toBe("pt-BR");
  });

  it("cents that would round badly as floats stay exact", () => {
    expect(formatPlanPrice(1005, "BRL")).toBe("R$ 10,05");
    expect(formatPlanPrice(29, "USD")).toBe("$0.29");
    expect(formatPlanPrice(100000001, "USD")).toBe("$1,000,000.01");
  });

  it("anything that is not whole, non-negative cents → '—'", () => {
    for (const bad of [97.5, -100, Number.NaN, Number.POSITIVE_INFINITY, "9700", null, undefined, 2 ** 60]) expect(formatPlanPrice(bad, "BRL")).toBe("—");
  });
});

describe("formatPlanInterval", () => {
  it("pt: 'mês' / 'ano', plural above 1", () => {
    expect(formatPlanInterval("month")).toBe("mês");
    expect(formatPlanInterval("year", 1, "pt")).toBe("ano");
    expect(formatPlanInterval("month", 3, "pt")).toBe("3 meses");
    expect(formatPlanInterval("year", 2, "pt")).toBe("2 anos");
  });

  it("en and es from the catalogs", () => {
    expect(formatPlanInterval("month", 1, "en")).toBe("month");
    expect(formatPlanInterval("year", 1, "en")).toBe("year");
    expect(formatPlanInterval("month", 6, "en")).toBe("6 months");
    expect(formatPlanInterval("month", 1, "es")).toBe("mes");
    expect(formatPlanInterval("year", 1, "es")).toBe("año");
    expect(formatPlanInterval("year", 2, "es")).toBe("2 años");
  });

  it("unknown interval → month; unknown language → pt; odd counts → 1", () => {
    expect(toPlanInterval("week")).toBe("month");
    expect(toPlanInterval(undefined)).toBe("month");
    expect(formatPlanInterval("week", 1, "pt")).toBe("mês");
    expect(formatPlanInterval("year", 1, "fr")).toBe("ano");
    for (const n of [0, -2, 1.5, "3", null]) expect(formatPlanInterval("month", n, "pt")).toBe("mês");
  });

  it("price per interval", () => {
    expect(formatPlanPricePerInterval(9700, "BRL", "month", 1, "pt")).toBe("R$ 97,00/mês");
    expect(formatPlanPricePerInterval(97000, "BRL", "year", 1, "en")).toBe("R$ 970,00/year");
    expect(formatPlanPricePerInterval(1900, "USD", "month", 1, "pt")).toBe("$19.00/mês");
    expect(formatPlanPricePerInterval(27000, "BRL", "month", 3, "pt")).toBe("R$ 270,00 / 3 meses");
  });
});

describe("defaultPlan", () => {
  it("the first highlighted plan, else the first, else none", () => {
    const a = { id: "a", isHighlighted: false };
    const b = { id: "b", isHighlighted: true };
    const c = { id: "c", isHighlighted: true };
    expect(defaultPlan([a, b, c])).toBe(b);
    expect(defaultPlan([a, { id: "d", isHighlighted: false }])).toBe(a);
    expect(defaultPlan([])).toBeUndefined();
  });
});

const LOCALES = join(__dirname, "../../../app/i18n/locales");
const catalog = (lang: string, ns: string) => JSON.parse(readFileSync(join(LOCALES, lang, `${ns}.json`), "utf8")) as unknown;

/** Every leaf path with its `{{params}}` (arrays by index, so lengths must match too). */
function leaves(value: unknown, path = ""): string[] {
  if (typeof value === "string") return [`${path} ${[...value.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort().join(",")}`];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${path}[${i}]`));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  return [`${path} <${typeof value}>`];
}
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

describe("plans and legal catalogs", () => {
  for (const ns of ["plans", "legal"]) {
    it(`${ns}: en and es have exactly the pt keys and parameters, no empty text`, () => {
      const pt = leaves(catalog("pt", ns));
      for (const lang of ["en", "es"]) {
        expect(leaves(catalog(lang, ns)), `${lang}/${ns}.json`).toEqual(pt);
        for (const s of strings(catalog(lang, ns))) expect(s.trim()).not.toBe("");
      }
    });
  }

  it("the entity details are visibly marked placeholders in every language (no invented company data)", () => {
    for (const lang of ["pt", "en", "es"]) {
      const entity = (catalog(lang, "legal") as { entity: Record<string, string> }).entity;
      for (const v of Object.values(entity)) expect(v).toMatch(/^\[.+\]$/);
    }
  });

  it("the privacy sections interpolate the entity in every language; the key points say what the brief requires", () => {
    for (const lang of ["pt", "en", "es"]) {
      const t = createI18n(lang).getFixedT(null, "legal");
      const entity = { company: t("entity.company"), cnpj: t("entity.cnpj"), address: t("entity.address"), dpoName: t("entity.dpoName"), dpoEmail: t("entity.dpoEmail") };
      const sections = t("privacy.sections", { returnObjects: true, ...entity }) as unknown as { title: string; body: string[] }[];
      const text = sections.flatMap((s) => s.body).join(" ");
      expect(text).not.toContain("{{");
      expect(text).toContain(entity.cnpj);
      expect(text).toContain(entity.dpoEmail);
      expect(t("provider", entity)).toContain(entity.company);
    }
    const pt = createI18n("pt").getFixedT(null, "legal");
    const points = (pt("terms.keyPoints", { returnObjects: true }) as unknown as string[]).join(" ");
    expect(points).toContain("risco de perda");
    expect(points).toContain("Resultados passados");
    expect(points).toContain("controle da sua conta na corretora");
    expect(points).toContain("LGPD");
    // Retail OANDA accounts cannot lose more than the deposit: the page never claims otherwise.
    expect(points).not.toMatch(/superiores ao depósito|mais do que (o )?depositado/);
  });
});

/**
 * Languages of the subscriber pages this area owns (PRODUCT.md §2 History and Terms screen, §3 User
 * preferences): history filter messages as catalog keys rendered per language, catalog parity of the
 * `history` and `terms` namespaces in pt/en/es, and the ten sections of the terms in every language.
 */
import { describe, expect, it } from "vitest";
import { createI18n, translateMsg } from "../../../app/i18n";
import { historyFiltersSchema, filterIssue, parseHistoryFilters } from "../../../app/lib/history";
import enHistory from "../../../app/i18n/locales/en/history.json";
import esHistory from "../../../app/i18n/locales/es/history.json";
import ptHistory from "../../../app/i18n/locales/pt/history.json";
import enTerms from "../../../app/i18n/locales/en/terms.json";
import esTerms from "../../../app/i18n/locales/es/terms.json";
import ptTerms from "../../../app/i18n/locales/pt/terms.json";
import ptAuth from "../../../app/i18n/locales/pt/auth.json";

/** Every leaf path of a catalog with the shape of its value (arrays by length). */
function shape(value: unknown, path = ""): string[] {
  if (Array.isArray(value)) return [`${path}[${value.length}]`, ...value.flatMap((v, i) => shape(v, `${path}[${i}]`))];
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => shape(v, path ? `${path}.${k}` : k));
  return [path];
}

/** The `{{name}}` placeholders of every string of a catalog, by path. */
function placeholders(value: unknown, path = ""): Record<string, string[]> {
  if (typeof value === "string") return { [path]: [...value.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!).sort() };
  if (value && typeof value === "object") return Object.assign({}, ...Object.entries(value).map(([k, v]) => placeholders(v, path ? `${path}.${k}` : k)));
  return {};
}

describe("history filter messages", () => {
  it("keep the Portuguese text and carry a translatable message", () => {
    const r = parseHistoryFilters(new URLSearchParams("minPnL=abc"));
    expect(r).toMatchObject({ ok: false, message: "minPnL deve ser um número", field: "minPnL", msg: { key: "history:filterErrors.number", params: { field: "minPnL" } } });
    if (r.ok) throw new Error("should fail");
    expect(translateMsg(r.msg, "en")).toBe("minPnL must be a number");
    expect(translateMsg(r.msg, "es")).toBe("minPnL debe ser un número");
  });

  it("render every rule in each language (no key left untranslated)", () => {
    const bad = ["q=" + "x".repeat(101), "instrument=" + "X".repeat(21), "side=long", "result=draw", "dateFrom=2026/01/01", "dateTo=2026-02-30", "maxPnL=abc", "dateFrom=2026-03-10&dateTo=2026-03-01", "minPnL=10&maxPnL=5"];
    for (const query of bad) {
      const parsed = historyFiltersSchema.safeParse(Object.fromEntries(new URLSearchParams(query)));
      expect(parsed.success, query).toBe(false);
      const { msg } = filterIssue(parsed.error!);
      expect(typeof msg, query).toBe("object");
      for (const lng of ["pt", "en", "es"]) {
        const text = translateMsg(msg, lng);
        expect(text, `${query} ${lng}`).not.toMatch(/filterErrors|history:/);
      }
      expect(translateMsg(msg, "en")).not.toBe(translateMsg(msg, "pt"));
      expect(translateMsg(msg, "es")).not.toBe(translateMsg(msg, "pt"));
    }
  });

  it("pt texts are the ones the page showed before (PRODUCT.md wording kept)", () => {
    expect(parseHistoryFilters(new URLSearchParams("dateFrom=2026/01/01"))).toMatchObject({ message: "dateFrom deve ser uma data no formato AAAA-MM-DD" });
    expect(parseHistoryFilters(new URLSearchParams("side=long"))).toMatchObject({ message: "side deve ser buy ou sell" });
    expect(parseHistoryFilters(new URLSearchParams("dateFrom=2026-03-10&dateTo=2026-03-01"))).toMatchObject({ message: "dateFrom deve ser anterior ou igual a dateTo" });
  });
});

describe("history catalog", () => {
  it("en and es have exactly the pt keys and placeholders", () => {
    for (const other of [enHistory, esHistory]) {
      expect(shape(other).sort()).toEqual(shape(ptHistory).sort());
      expect(placeholders(other)).toEqual(placeholders(ptHistory));
    }
  });

  it("the page title is translated", () => {
    expect(createI18n("pt").t("history:metaTitle")).toBe("Histórico de Trades — Forex IA");
    expect(createI18n("en").t("history:metaTitle")).toBe("Trade History — Forex IA");
    expect(createI18n("es").t("history:metaTitle")).toBe("Historial de Trades — Forex IA");
  });
});

describe("terms (PRODUCT.md §2 Terms screen: ten numbered sections)", () => {
  const sectionsOf = (lng: string) => createI18n(lng).t("terms:sections", { returnObjects: true }) as { title: string; body: string[] }[];

  it("every language has the same ten numbered sections, paragraph for paragraph", () => {
    for (const lng of ["pt", "en", "es"]) {
      const sections = sectionsOf(lng);
      expect(sections, lng).toHaveLength(10);
      sections.forEach((s, i) => {
        expect(s.title, lng).toMatch(new RegExp(`^${i + 1}\\. \\S`));
        expect(s.body.length, `${lng} ${s.title}`).toBe(ptTerms.sections[i]!.body.length);
        for (const p of s.body) expect(p.length).toBeGreaterThan(40);
      });
    }
    expect(shape(enTerms).sort()).toEqual(shape(ptTerms).sort());
    expect(shape(esTerms).sort()).toEqual(shape(ptTerms).sort());
  });

  it("en and es are real translations, not the Portuguese fallback", () => {
    const pt = sectionsOf("pt");
    for (const lng of ["en", "es"]) {
      const other = sectionsOf(lng);
      other.forEach((s, i) => {
        expect(s.title).not.toBe(pt[i]!.title);
        s.body.forEach((p, j) => expect(p).not.toBe(pt[i]!.body[j]));
      });
      expect(createI18n(lng).t("terms:heading")).not.toBe(createI18n("pt").t("terms:heading"));
    }
    expect(sectionsOf("en").map((s) => s.title)).toEqual([
      "1. Acceptance of the Terms",
      "2. Description of the Service",
      "3. Market Risks",
      "4. Integration with the Broker",
      "5. Payment and Subscription",
      "6. Privacy and Data Protection",
      "7. Limitation of Liability",
      "8. Cancellation",
      "9. Changes to the Terms",
      "10. Contact",
    ]);
    expect(sectionsOf("es")[9]!.body[0]).toContain("suporte@forexia.app");
  });

  it("the Portuguese text is unchanged and lives only in the terms namespace", () => {
    const pt = sectionsOf("pt");
    expect(pt.map((s) => s.title)).toEqual([
      "1. Aceitação dos Termos",
      "2. Descrição do Serviço",
      "3. Riscos do Mercado",
      "4. Integração com a Corretora",
      "5. Pagamento e Assinatura",
      "6. Privacidade e Proteção de Dados",
      "7. Limitação de Responsabilidade",
      "8. Cancelamento",
      "9. Alterações dos Termos",
      "10. Contato",
    ]);
    expect(pt[6]!.body[1]).toBe("Quando houver responsabilidade, ela fica limitada ao valor pago por você à Forex IA nos 3 (três) meses anteriores ao evento.");
    expect(createI18n("pt").t("terms:heading")).toBe("Termos de Uso e Política de Privacidade da Forex IA");
    expect("terms" in ptAuth).toBe(false);
  });
});

/**
 * The `trade` catalog (issue 12: trade detail, "Por que a IA entrou?", balance curve): en and es have exactly
 * the pt keys with the same {{parameters}}, no empty text; every indicator the decisions store has a label.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXPLAINED_INDICATORS } from "../../../core/trading/explain";

const LOCALES = join(__dirname, "../../../app/i18n/locales");
const catalog = (lang: string) => JSON.parse(readFileSync(join(LOCALES, lang, "trade.json"), "utf8")) as Record<string, unknown>;

/** Every leaf of a catalog as "path → sorted {{params}}". */
function shape(obj: Record<string, unknown>, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === "object" && v !== null) Object.assign(out, shape(v as Record<string, unknown>, `${prefix}${k}.`));
    else out[`${prefix}${k}`] = [...String(v).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort().join(",");
  }
  return out;
}

describe("trade catalog", () => {
  it("en and es have exactly the pt keys and parameters, none empty", () => {
    const pt = shape(catalog("pt"));
    for (const lang of ["en", "es"]) {
      expect(shape(catalog(lang)), lang).toEqual(pt);
      const flat = JSON.stringify(catalog(lang));
      expect(flat, lang).not.toContain('""');
    }
  });

  it("labels every stored indicator", () => {
    const indicator = catalog("pt").indicator as Record<string, string>;
    for (const name of EXPLAINED_INDICATORS) expect(indicator[name], name).toBeTruthy();
  });
});

/**
 * Issue 22 (11a), PRODUCT.md §5 Broker wizard: 'Validar token' is disabled while the token is empty or
 * whitespace or a request runs, enabled once a token is typed. What is asserted is the rendered step.
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { i18nFor, type Language } from "../../../app/i18n";
import { TokenStep, type TokenStepProps } from "../../../app/components/broker-wizard";

const noop = () => {};

/** The rendered token step's submit button (its opening tag and label). */
function validateButton(props: Partial<TokenStepProps>, lng: Language = "pt"): { tag: string; label: string } {
  const all: TokenStepProps = {
    environment: "practice",
    onEnvironment: noop,
    token: "",
    onToken: noop,
    showToken: false,
    onToggleShow: noop,
    busy: null,
    onBack: noop,
    onSubmit: noop,
    ...props,
  };
  const html = renderToString(createElement(I18nextProvider, { i18n: i18nFor(lng) }, createElement(TokenStep, all)));
  const m = /<button([^>]*type="submit"[^>]*)>([\s\S]*?)<\/button>/.exec(html);
  if (!m) throw new Error("no submit button");
  return { tag: m[1]!, label: m[2]!.replace(/<[^>]+>/g, "").replace(/<!-- -->/g, "").trim() };
}

const isDisabled = (tag: string) => /\sdisabled=""/.test(tag);

describe("broker wizard: 'Validar token'", () => {
  it("is disabled with an empty token", () => {
    const b = validateButton({ token: "" });
    expect(b.label).toBe("Validar token");
    expect(isDisabled(b.tag)).toBe(true);
  });

  it("is disabled with a whitespace-only token", () => {
    expect(isDisabled(validateButton({ token: "   " }).tag)).toBe(true);
  });

  it("is enabled once a token is typed, and disabled again while the request runs", () => {
    expect(isDisabled(validateButton({ token: "abc-123" }).tag)).toBe(false);
    expect(isDisabled(validateButton({ token: "abc-123", busy: "test" }).tag)).toBe(true);
  });

  it("reads in English and Spanish, disabled alike", () => {
    const en = validateButton({ token: "" }, "en");
    const es = validateButton({ token: "" }, "es");
    expect(isDisabled(en.tag) && isDisabled(es.tag)).toBe(true);
    expect(en.label).not.toBe("Validar token");
    expect(en.label.length).toBeGreaterThan(0);
    expect(es.label.length).toBeGreaterThan(0);
  });
});

/** The /billing page forms' schemas (app/lib/billing-form.ts): what a subscribe needs and which message a refusal gets. */
import { describe, expect, it } from "vitest";
import { portalFormSchema, subscribeFormSchema, subscribeIssueKey, validateFormSchema } from "../../../app/lib/billing-form";

const issueOf = (input: Record<string, unknown>) => {
  const r = subscribeFormSchema.safeParse(input);
  return r.success ? null : subscribeIssueKey(r.error.issues[0]);
};

describe("billing forms", () => {
  it("subscribe: a plan (trimmed) and the ticked terms; js=1 from the fetcher", () => {
    expect(subscribeFormSchema.parse({ intent: "subscribe", planId: " plano-1 ", terms: "on" })).toEqual({ planId: "plano-1", terms: "on", js: false });
    expect(subscribeFormSchema.parse({ planId: "p", terms: "on", js: "1" }).js).toBe(true);
  });

  it("subscribe refused: no plan first ('Selecione um plano.'), then the terms", () => {
    expect(issueOf({ terms: "on" })).toBe("billing:errors.choosePlan");
    expect(issueOf({ planId: "   ", terms: "on" })).toBe("billing:errors.choosePlan");
    expect(issueOf({})).toBe("billing:errors.choosePlan");
    expect(issueOf({ planId: "p" })).toBe("billing:errors.acceptTerms");
    expect(issueOf({ planId: "p", terms: "yes" })).toBe("billing:errors.acceptTerms");
    expect(subscribeIssueKey(undefined)).toBe("billing:errors.choosePlan");
  });

  it("validate and portal: flags on only for \"1\"", () => {
    expect(validateFormSchema.parse({ stay: "1" })).toEqual({ stay: true });
    expect(validateFormSchema.parse({})).toEqual({ stay: false });
    expect(portalFormSchema.parse({ js: "1" })).toEqual({ js: true });
    expect(portalFormSchema.parse({ js: "0" })).toEqual({ js: false });
  });
});

/**
 * Billing view logic (PRODUCT.md §2 subscription modal and Billing, §4 subscription statuses, §5,
 * §7 upcoming invoice, §8 "Subscription", §9; issue 9): when the subscription modal opens and may be
 * closed, which statuses are payment-pending, when 'Já paguei' counts as paid, the amount and next
 * charge of /billing, the redirect targets we accept; and the `billing` catalog (same keys and
 * parameters in pt/en/es, the spec's Portuguese wording).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkoutSessionId,
  epochToIso,
  isActiveSubscription,
  isPaymentPending,
  isSafeRedirect,
  modalState,
  needsCardFix,
  nextCharge,
  paymentConfirmed,
  subscriptionAmount,
  subscriptionTone,
} from "../../../app/components/billing/billing-view";
import { INCLUDED_FEATURES } from "../../../app/components/subscription-modal";
import { createI18n } from "../../../app/i18n";

describe("statuses (PRODUCT.md §4)", () => {
  it("active and trialing are active subscriptions", () => {
    expect(isActiveSubscription("active")).toBe(true);
    expect(isActiveSubscription("trialing")).toBe(true);
    for (const s of ["inactive", "past_due", "canceled", "unpaid", "incomplete", "", null, undefined]) expect(isActiveSubscription(s)).toBe(false);
  });

  it("past_due, unpaid, incomplete and incomplete_expired wait for a payment", () => {
    for (const s of ["past_due", "unpaid", "incomplete", "incomplete_expired"]) expect(isPaymentPending(s)).toBe(true);
    for (const s of ["active", "trialing", "inactive", "canceled", null]) expect(isPaymentPending(s)).toBe(false);
  });

  it("badge tones", () => {
    expect(subscriptionTone("active")).toBe("green");
    expect(subscriptionTone("trialing")).toBe("green");
    expect(subscriptionTone("past_due")).toBe("amber");
    expect(subscriptionTone("incomplete")).toBe("amber");
    expect(subscriptionTone("canceled")).toBe("red");
    expect(subscriptionTone("inactive")).toBe("grey");
  });
});

describe("modalState (PRODUCT.md §2, §6)", () => {
  const trial = { subscriptionStatus: "inactive", hasValidLicense: true };
  const lapsed = { subscriptionStatus: "inactive", hasValidLicense: false };
  const subscribed = { subscriptionStatus: "active", hasValidLicense: true };

  it("opens by itself without an active subscription: closable with a valid licence (trial), not without", () => {
    expect(modalState(trial)).toEqual({ open: true, closable: true });
    expect(modalState(lapsed)).toEqual({ open: true, closable: false });
    expect(modalState({ subscriptionStatus: "canceled", hasValidLicense: false })).toEqual({ open: true, closable: false });
  });

  it("never shown for a subscription whose renewal is unpaid (past_due, unpaid): the card is the fix (issue 22 item 3)", () => {
    for (const subscriptionStatus of ["past_due", "unpaid"])
      for (const hasValidLicense of [true, false])
        for (const param of [null, "1", "0"]) {
          expect(modalState({ subscriptionStatus, hasValidLicense, param }).open).toBe(false);
          expect(modalState({ subscriptionStatus, hasValidLicense, param, forced: true }).open).toBe(false);
        }
    expect(needsCardFix("past_due")).toBe(true);
    expect(needsCardFix("unpaid")).toBe(true);
    // incomplete checkouts and ended subscriptions still subscribe through the modal.
    for (const s of ["incomplete", "incomplete_expired", "canceled", "inactive", "active", null]) expect(needsCardFix(s)).toBe(false);
    expect(modalState({ subscriptionStatus: "incomplete_expired", hasValidLicense: false })).toEqual({ open: true, closable: false });
  });

  it("assinar=0 closes it only when closable; assinar=1 or a failed subscribe opens it", () => {
    expect(modalState({ ...trial, param: "0" })).toEqual({ open: false, closable: true });
    expect(modalState({ ...lapsed, param: "0" })).toEqual({ open: true, closable: false });
    expect(modalState({ ...trial, param: "0", forced: true })).toEqual({ open: true, closable: true });
    expect(modalState({ ...trial, param: "1" })).toEqual({ open: true, closable: true });
  });

  it("never shown with an active/trialing subscription and a valid licence, nor to admins", () => {
    expect(modalState(subscribed).open).toBe(false);
    expect(modalState({ ...subscribed, param: "1" }).open).toBe(false);
    expect(modalState({ subscriptionStatus: "trialing", hasValidLicense: true, param: "1" }).open).toBe(false);
    expect(modalState({ ...lapsed, role: "admin" }).open).toBe(false);
    // Active in Stripe but no valid licence yet (e.g. a webhook still on its way): the modal stays, not closable.
    expect(modalState({ subscriptionStatus: "active", hasValidLicense: false })).toEqual({ open: true, closable: false });
  });
});

describe("paymentConfirmed ('Já paguei, validar agora')", () => {
  it("a valid licence with an active/trialing subscription", () => {
    expect(paymentConfirmed({ subscriptionStatus: "active", hasValidLicense: true, license: { kind: "paid" } })).toBe(true);
    expect(paymentConfirmed({ subscriptionStatus: "trialing", hasValidLicense: true, license: null })).toBe(true);
  });
  it("a trial licence alone is not a payment; a pending status is not either", () => {
    expect(paymentConfirmed({ subscriptionStatus: "inactive", hasValidLicense: true, license: { kind: "trial" } })).toBe(false);
    expect(paymentConfirmed({ subscriptionStatus: "past_due", hasValidLicense: true, license: { kind: "paid" } })).toBe(false);
    expect(paymentConfirmed({ subscriptionStatus: "active", hasValidLicense: false, license: null })).toBe(false);
  });
  it("a valid paid or support-granted licence without a pending payment", () => {
    expect(paymentConfirmed({ subscriptionStatus: "canceled", hasValidLicense: true, license: { kind: "paid" } })).toBe(true);
    expect(paymentConfirmed({ subscriptionStatus: "inactive", hasValidLicense: true, license: { kind: "manual" } })).toBe(true);
  });
});

describe("amount and next charge (PRODUCT.md §7, §9)", () => {
  it("formats the subscription price like plans: BRL pt-BR, others en-US, interval in the reader's language", () => {
    const brl = { unit_amount: 9700, currency: "brl", recurring: { interval: "month", interval_count: 1 } };
    expect(subscriptionAmount(brl, "pt")).toBe("R$ 97,00/mês");
    expect(subscriptionAmount(brl, "en")).toBe("R$ 97,00/month");
    expect(subscriptionAmount({ unit_amount: 19000, currency: "usd", recurring: { interval: "year", interval_count: 1 } }, "pt")).toBe("$190.00/ano");
    expect(subscriptionAmount({ unit_amount: 27000, currency: "brl", recurring: { interval: "month", interval_count: 3 } }, "pt")).toBe("R$ 270,00 / 3 meses");
    expect(subscriptionAmount(null, "pt")).toBeNull();
    expect(subscriptionAmount({ unit_amount: null, currency: "brl" }, "pt")).toBeNull();
  });

  it("epoch seconds to ISO", () => {
    expect(epochToIso(1_700_000_000)).toBe("2023-11-14T22:13:20.000Z");
    expect(epochToIso(null)).toBeNull();
    expect(epochToIso(0)).toBeNull();
    expect(epochToIso(Number.NaN)).toBeNull();
  });

  const end = "2030-01-31T12:00:00.000Z";
  it("the upcoming invoice only with a Stripe customer and an active subscription", () => {
    const upcoming = { next_payment_attempt: 1_700_000_000, period_end: 1_600_000_000 };
    expect(nextCharge({ subscriptionStatus: "active", stripeCustomerId: "cus_1", upcoming, licenseEndDate: end })).toEqual({ kind: "charge", date: "2023-11-14T22:13:20.000Z" });
    expect(nextCharge({ subscriptionStatus: "active", stripeCustomerId: "cus_1", upcoming: { next_payment_attempt: null, period_end: 1_700_000_000 }, licenseEndDate: end })).toEqual({
      kind: "charge",
      date: "2023-11-14T22:13:20.000Z",
    });
    expect(nextCharge({ subscriptionStatus: "active", stripeCustomerId: null, upcoming, licenseEndDate: end })).toEqual({ kind: "licenceEnd", date: end });
    expect(nextCharge({ subscriptionStatus: "past_due", stripeCustomerId: "cus_1", upcoming, licenseEndDate: end })).toEqual({ kind: "licenceEnd", date: end });
    expect(nextCharge({ subscriptionStatus: "active", stripeCustomerId: "cus_1", upcoming: null, licenseEndDate: end })).toEqual({ kind: "licenceEnd", date: end });
    expect(nextCharge({ subscriptionStatus: "inactive", stripeCustomerId: null, upcoming: null, licenseEndDate: null })).toEqual({ kind: "none", date: null });
  });
});

describe("redirect targets and session ids", () => {
  it("accepts http(s) URLs and root-relative paths only", () => {
    expect(isSafeRedirect("https://checkout.stripe.com/c/pay/cs_test_1")).toBe(true);
    expect(isSafeRedirect("http://127.0.0.1:3000/stripe-sim/checkout/cs_1")).toBe(true);
    expect(isSafeRedirect("/stripe-sim/checkout/cs_1")).toBe(true);
    for (const bad of ["javascript:alert(1)", "data:text/html,x", "//evil.example/x", "/\\evil.example", "", "ftp://x/y", null, 42]) expect(isSafeRedirect(bad)).toBe(false);
  });

  it("a checkout session id is 1–255 safe characters ('Sessão inválida.' otherwise)", () => {
    expect(checkoutSessionId(" cs_test_a1B2 ")).toBe("cs_test_a1B2");
    expect(checkoutSessionId("")).toBeNull();
    expect(checkoutSessionId(null)).toBeNull();
    expect(checkoutSessionId("cs_1<script>")).toBeNull();
    expect(checkoutSessionId("x".repeat(256))).toBeNull();
  });
});

const LOCALES = join(__dirname, "../../../app/i18n/locales");
const catalog = (lang: string) => JSON.parse(readFileSync(join(LOCALES, lang, "billing.json"), "utf8")) as unknown;

/** Every leaf path with its `{{params}}` and `<tags>`. */
function leaves(value: unknown, path = ""): string[] {
  if (typeof value === "string") {
    const params = [...value.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    const tags = [...value.matchAll(/<(\w+)>/g)].map((m) => m[1]).sort();
    return [`${path} ${params.join(",")} ${tags.join(",")}`];
  }
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  return [`${path} <${typeof value}>`];
}

describe("billing catalog", () => {
  it("en and es have exactly the pt keys, parameters and tags, no empty text", () => {
    const pt = leaves(catalog("pt"));
    for (const lang of ["en", "es"]) expect(leaves(catalog(lang)), `${lang}/billing.json`).toEqual(pt);
    for (const lang of ["pt", "en", "es"]) for (const l of leaves(catalog(lang))) expect(l.split(" ")[0]).not.toBe("");
  });

  it("the spec's Portuguese wording (PRODUCT.md §2, §4, §8)", () => {
    const t = createI18n("pt").getFixedT(null, "billing");
    expect(t("modal.title")).toBe("Assinatura Necessária");
    expect(t("title")).toBe("Gerenciar Assinatura");
    expect(t("alreadyPaid")).toBe("Já paguei, validar agora");
    expect(t("retry")).toBe("Tentar Novamente");
    expect(t("errors.plans")).toBe("Erro ao carregar planos de assinatura");
    expect(t("errors.noPlans")).toBe("Nenhum plano disponível no momento.");
    expect(t("errors.status")).toBe("Não foi possível verificar o status da assinatura.");
    expect(t("errors.checkout")).toBe("Erro ao processar pagamento");
    expect(t("errors.load")).toBe("Falha ao carregar dados da assinatura");
    expect(t("errors.portal")).toBe("Erro ao abrir o portal de cobrança. Tente novamente.");
    expect(t("page.pendingTitle")).toBe("Pagamento pendente");
    expect(t("success.failedTitle")).toBe("Falha ao validar");
    expect(t("success.failedText")).toBe("Não foi possível validar sua assinatura.");
    expect(t("success.invalidSession")).toBe("Sessão inválida.");
    expect(t("canceled.title")).toBe("Pagamento cancelado");
    expect(t("canceled.back")).toBe("Voltar");
    expect(t("page.cancelScheduled", { date: "31/01/2030" })).toContain("Cancelamento agendado para 31/01/2030");
  });

  it("the six included features of §2, in every language", () => {
    expect(INCLUDED_FEATURES).toHaveLength(6);
    const pt = createI18n("pt").getFixedT(null, "billing");
    expect(INCLUDED_FEATURES.map((f) => pt(`modal.features.${f}`))).toEqual([
      "Trading automatizado com IA",
      "Análise de mercado em tempo real",
      "Gestão de risco avançada",
      "Notificações push personalizadas",
      "Suporte prioritário",
      "Relatórios detalhados",
    ]);
    for (const lang of ["en", "es"]) {
      const t = createI18n(lang).getFixedT(null, "billing");
      for (const f of INCLUDED_FEATURES) expect(t(`modal.features.${f}`)).not.toBe(pt(`modal.features.${f}`));
    }
  });
});

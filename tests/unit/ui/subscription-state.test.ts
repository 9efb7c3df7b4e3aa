/**
 * The subscription's real state (issue 22 items 1 and 2; PRODUCT.md §2 Dashboard and Billing, §4): the dashboard's
 * subscription card says Ativa / Pagamento Pendente / Cancelada (acesso até …) / Licença manual / Teste grátis /
 * Inativa — 'Teste grátis' only for a trial licence — and /billing shows 'Cancelamento agendado para …' only while
 * the subscription still runs with a future period end, never beside a cancelled subscription or an expired licence.
 * What is asserted is the text the user reads (pt; en/es have their own words).
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it, vi } from "vitest";
import { i18nFor, type Language } from "../../../app/i18n";
import { subscriptionState, type SubscriptionFacts } from "../../../app/lib/subscription-state";

let rootData: { language: Language; timezone: string } = { language: "pt", timezone: "America/Sao_Paulo" };
vi.mock("@remix-run/react", () => ({
  Link: ({ to, children, ...rest }: { to: string; children: unknown }) => createElement("a", { href: to, ...rest }, children as never),
  useRouteLoaderData: () => rootData,
}));
const { ScheduledCancelBanner, SubscriptionStateText } = await import("../../../app/components/subscription-state");

const NOW = new Date("2026-03-10T12:00:00Z");
const LATER = "2026-04-15T15:00:00.000Z"; // 15/04/2026 in São Paulo
const EARLIER = "2026-02-20T15:00:00.000Z";

/** A user whose licence runs until LATER, of a kind, with a Stripe status. */
function facts(subscriptionStatus: string, kind: "trial" | "paid" | "manual" | null, more: Partial<SubscriptionFacts> = {}): SubscriptionFacts {
  return { subscriptionStatus, licenseStatus: kind ? "valid" : "none", license: kind ? { kind, endDate: LATER } : null, ...more };
}

/** The element's text as rendered (tags and the React comment markers dropped). */
function text(html: string): string {
  return html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, "").replace(/&#x27;/g, "'").trim();
}

function statusLine(f: SubscriptionFacts, lng: Language = "pt"): string {
  rootData = { language: lng, timezone: "America/Sao_Paulo" };
  return text(renderToString(createElement(I18nextProvider, { i18n: i18nFor(lng) }, createElement(SubscriptionStateText, { state: subscriptionState(f, NOW) }))));
}

function banner(f: SubscriptionFacts, lng: Language = "pt"): string {
  rootData = { language: lng, timezone: "America/Sao_Paulo" };
  return text(renderToString(createElement(I18nextProvider, { i18n: i18nFor(lng) }, createElement(ScheduledCancelBanner, { state: subscriptionState(f, NOW) }))));
}

describe("dashboard subscription card: the status line", () => {
  it("a paying customer is 'Ativa' (active and Stripe's trialing), whatever the licence's kind", () => {
    expect(statusLine(facts("active", "paid"))).toBe("Ativa");
    expect(statusLine(facts("trialing", "paid"))).toBe("Ativa");
    expect(statusLine(facts("active", "manual"))).toBe("Ativa");
  });

  it("past_due is 'Pagamento Pendente', not 'Teste grátis', while the paid licence still runs", () => {
    expect(statusLine(facts("past_due", "paid"))).toBe("Pagamento Pendente");
  });

  it("cancelled but paid through: 'Cancelada (acesso até <licence end>)'", () => {
    expect(statusLine(facts("canceled", "paid"))).toBe("Cancelada (acesso até 15/04/2026)");
  });

  it("an active subscription set to cancel at a future period end: 'Cancelada (acesso até <period end>)'", () => {
    expect(statusLine(facts("active", "paid", { cancelAtPeriodEnd: true, periodEnd: LATER }))).toBe("Cancelada (acesso até 15/04/2026)");
    // The period end already passed (Stripe's update has not arrived): still 'Ativa'.
    expect(statusLine(facts("active", "paid", { cancelAtPeriodEnd: true, periodEnd: EARLIER }))).toBe("Ativa");
  });

  it("a licence extended by an admin is 'Licença manual'", () => {
    expect(statusLine(facts("canceled", "manual"))).toBe("Licença manual");
    expect(statusLine(facts("inactive", "manual"))).toBe("Licença manual");
  });

  it("'Teste grátis' only for a licence of kind trial", () => {
    expect(statusLine(facts("inactive", "trial"))).toBe("Teste grátis");
    for (const kind of ["paid", "manual"] as const) expect(statusLine(facts("inactive", kind))).not.toBe("Teste grátis");
  });

  it("without a licence in force: 'Cancelada' for a cancelled subscription, else 'Inativa'", () => {
    expect(statusLine({ subscriptionStatus: "canceled", licenseStatus: "expired", license: { kind: "paid", endDate: EARLIER } })).toBe("Cancelada");
    expect(statusLine({ subscriptionStatus: "inactive", licenseStatus: "expired", license: { kind: "trial", endDate: EARLIER } })).toBe("Inativa");
    expect(statusLine(facts("inactive", null))).toBe("Inativa");
  });

  it("en and es have their own words", () => {
    expect(statusLine(facts("canceled", "paid"), "en")).toBe("Canceled (access until 04/15/2026)");
    expect(statusLine(facts("canceled", "manual"), "es")).toBe("Licencia manual");
    expect(statusLine(facts("past_due", "paid"), "es")).toBe("Pago Pendiente");
  });
});

describe("/billing 'Cancelamento agendado' banner", () => {
  const scheduled = { cancelAtPeriodEnd: true, periodEnd: LATER };

  it("shows while the subscription still runs (active, trialing, past_due) and the period end is ahead", () => {
    for (const status of ["active", "trialing", "past_due"])
      expect(banner(facts(status, "paid", scheduled))).toBe("Cancelamento agendado para 15/04/2026. Você mantém o acesso até lá.");
  });

  it("never beside a cancelled subscription, even with cancel_at_period_end still set", () => {
    expect(banner(facts("canceled", "paid", scheduled))).toBe("");
    expect(banner({ subscriptionStatus: "canceled", licenseStatus: "expired", license: { kind: "paid", endDate: EARLIER }, ...scheduled })).toBe("");
  });

  it("never beside an expired licence", () => {
    expect(banner({ subscriptionStatus: "active", licenseStatus: "expired", license: { kind: "paid", endDate: EARLIER }, ...scheduled })).toBe("");
  });

  it("not once the period end has passed, nor without cancel_at_period_end", () => {
    expect(banner(facts("active", "paid", { cancelAtPeriodEnd: true, periodEnd: EARLIER }))).toBe("");
    expect(banner(facts("active", "paid", { cancelAtPeriodEnd: false, periodEnd: LATER }))).toBe("");
  });
});

/**
 * Issue 22 item 3: a past_due subscriber who opens Cobrança (/billing) lands on the fix. The page shows a
 * 'Pagamento pendente' section with the Billing Portal button ('Atualizar cartão no portal', a POST
 * `intent=portal` in a new tab) and 'Já paguei, validar agora' (a POST `intent=validate&stay=1`), both
 * native forms (no JavaScript needed); no subscription modal 'Assinatura Necessária', no plan checkout
 * and no 'Assinar' link (the server refuses that checkout). Users without a subscription still get the modal.
 * The page is rendered with react-dom/server, its loader data given (the Remix hooks mocked).
 */
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { i18nFor, type Language } from "../../../app/i18n";

const state: { loader: unknown; action: unknown; search: string; language: Language } = { loader: null, action: undefined, search: "", language: "pt" };

vi.mock("@remix-run/react", () => {
  const el =
    (tag: string) =>
    ({ children, reloadDocument: _r, preventScrollReset: _p, to, ...rest }: { children?: ReactNode; to?: string; [k: string]: unknown }) =>
      createElement(tag, to !== undefined ? { href: to, ...rest } : rest, children);
  const Form = el("form");
  return {
    Form,
    Link: el("a"),
    useLoaderData: () => state.loader,
    useActionData: () => state.action,
    useSearchParams: () => [new URLSearchParams(state.search), () => {}],
    useNavigation: () => ({ state: "idle", formData: undefined }),
    useRevalidator: () => ({ state: "idle", revalidate: () => {} }),
    useRouteLoaderData: () => ({ language: state.language, timezone: "America/Sao_Paulo" }),
    useFetcher: () => ({ state: "idle", data: undefined, Form, submit: () => {} }),
    useNavigate: () => () => {},
    useSubmit: () => () => {},
    useMatches: () => [],
  };
});
// The route module's server imports are not exercised by rendering.
vi.mock("~/services/billing/billing.server", () => ({}));
vi.mock("~/services/billing/plans.server", () => ({}));
vi.mock("~/services/identity/auth.server", () => ({}));
vi.mock("~/route-support/api.server", () => ({}));
vi.mock("~/services/identity/request-language.server", () => ({}));
vi.mock("~/route-support/pages.server", () => ({}));
vi.mock("~/route-support/form.server", () => ({}));

const { default: BillingPage } = await import("../../../app/routes/billing");

const PLAN = {
  id: "11111111-1111-4111-8111-111111111111",
  name: "Mensal",
  description: "Plano mensal",
  formattedPrice: "R$ 97,00",
  formattedDuration: "1 mês",
  intervalCount: 1,
  features: [],
  isHighlighted: true,
  isDefault: true,
};

/** The loader's answer for a user with a Stripe status and licence. */
function loaderData(status: string, opts: { hasValidLicense?: boolean; hasCustomer?: boolean } = {}) {
  const hasValidLicense = opts.hasValidLicense ?? true;
  return {
    language: state.language,
    statusError: false,
    access: { subscriptionStatus: status, hasValidLicense },
    licence: { status: hasValidLicense ? "valid" : "expired", key: "PAID-ABCDEFGHIJKL", endDate: "2030-01-31T12:00:00.000Z", planName: "Mensal", kind: "paid" },
    paymentsConfigured: true,
    subscription: {
      status,
      hasCustomer: opts.hasCustomer ?? true,
      planName: "Mensal",
      amount: "R$ 97,00/mês",
      next: { kind: "licenceEnd", date: "2030-01-31T12:00:00.000Z" },
      state: { kind: "pending" },
    },
    plans: [PLAN],
    plansError: false,
    loadedAt: "2030-01-01T00:00:00.000Z",
  };
}

/** The page's HTML. */
function page(): string {
  return renderToString(createElement(I18nextProvider, { i18n: i18nFor(state.language) }, createElement(BillingPage)));
}

/** The visible text (tags and React's comment markers dropped, entities decoded). */
function text(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");
}

/** The <form> whose hidden intent is `intent`, as HTML (or null). */
function formWithIntent(html: string, intent: string): string | null {
  for (const m of html.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/g)) if (m[0].includes(`name="intent" value="${intent}"`)) return m[0];
  return null;
}

beforeEach(() => {
  state.action = undefined;
  state.search = "";
  state.language = "pt";
});

describe("/billing for a past_due subscriber (issue 22 item 3)", () => {
  it("shows 'Pagamento pendente' with the portal button and 'Já paguei, validar agora'", () => {
    state.loader = loaderData("past_due");
    const html = page();
    const visible = text(html);
    expect(visible).toContain("Pagamento pendente");
    expect(visible).toContain("Atualizar cartão no portal");
    expect(visible).toContain("Já paguei, validar agora");
    const portal = formWithIntent(html, "portal");
    expect(portal).not.toBeNull();
    expect(portal).toMatch(/method="post"/);
    expect(portal).toMatch(/action="\/billing"/);
    expect(portal).toMatch(/target="_blank"/);
    const validate = formWithIntent(html, "validate");
    expect(validate).toMatch(/action="\/billing"/);
    expect(validate).toContain('name="stay" value="1"');
  });

  it("no 'Assinatura Necessária', no plan checkout, no 'Assinar' link", () => {
    for (const search of ["", "assinar=1"]) {
      state.search = search;
      for (const status of ["past_due", "unpaid"]) {
        for (const hasValidLicense of [true, false]) {
          state.loader = loaderData(status, { hasValidLicense });
          const html = page();
          expect(text(html), `${status} ${search}`).not.toContain("Assinatura Necessária");
          expect(formWithIntent(html, "subscribe"), `${status} ${search}`).toBeNull();
          expect(html).not.toContain('data-testid="subscribe-button"');
          expect(html).not.toContain('data-testid="open-subscription-modal"');
          expect(text(html)).not.toContain("Assinar agora");
        }
      }
    }
  });

  it("shows the answer of 'Já paguei': confirmed, or not yet", () => {
    state.loader = loaderData("active");
    state.action = { intent: "validate", ok: true, tone: "success", message: "Pagamento confirmado. Sua assinatura está ativa." };
    expect(text(page())).toContain("Pagamento confirmado. Sua assinatura está ativa.");
    state.loader = loaderData("past_due");
    state.action = { intent: "validate", ok: false, tone: "warning", message: "Ainda não identificamos o seu pagamento." };
    const visible = text(page());
    expect(visible).toContain("Ainda não identificamos o seu pagamento.");
    expect(visible).not.toContain("Assinatura Necessária");
  });

  it("in English and Spanish too", () => {
    state.language = "en";
    state.loader = loaderData("past_due");
    let visible = text(page());
    expect(visible).toContain("Update card in the portal");
    expect(visible).not.toContain("Assinatura");
    state.language = "es";
    state.loader = loaderData("past_due");
    visible = text(page());
    expect(visible).toContain("Actualizar tarjeta en el portal");
    expect(visible).toContain("Ya pagué, validar ahora");
  });

  it("without a Stripe customer there is no portal to open: 'Já paguei' still is", () => {
    state.loader = loaderData("past_due", { hasCustomer: false });
    const html = page();
    expect(formWithIntent(html, "portal")).toBeNull();
    expect(text(html)).toContain("Já paguei, validar agora");
  });
});

describe("/billing for users who must subscribe (unchanged)", () => {
  it("a lapsed user without a subscription gets the modal 'Assinatura Necessária' with the plan checkout", () => {
    state.loader = { ...loaderData("inactive", { hasValidLicense: false }), subscription: null };
    const html = page();
    expect(text(html)).toContain("Assinatura Necessária");
    expect(formWithIntent(html, "subscribe")).not.toBeNull();
  });

  it("an active subscriber gets the Billing Portal button and no pending section", () => {
    state.loader = loaderData("active");
    const html = page();
    expect(html).toContain('data-testid="billing-portal"');
    expect(text(html)).not.toContain("Pagamento pendente");
    expect(text(html)).not.toContain("Assinatura Necessária");
  });
});

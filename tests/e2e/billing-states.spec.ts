/**
 * The subscription states a paying customer reads (issue 22 items 1-3), end to end against the embedded
 * Stripe simulator, at desktop 1440×900 and mobile 390×844:
 * - paid (hosted checkout, 4242) → the dashboard's subscription card says 'Ativa';
 * - cancelled at the period end in the Billing Portal → 'Cancelada (acesso até …)' on the card and
 *   'Cancelamento agendado para …' on /billing; once the period is over (the subscription deleted) the
 *   banner is gone beside 'Cancelada', and gone with an expired licence too (item 2);
 * - a renewal whose card fails → past_due → the card says 'Pagamento Pendente' and /billing lands on the fix:
 *   'Pagamento pendente' with 'Atualizar cartão no portal' and 'Já paguei, validar agora', no 'Assinatura
 *   Necessária' modal and no 'Assinar' (item 3); a new card in the portal pays it and 'Já paguei' confirms;
 * - a trial extended by an admin → 'Licença manual' (item 1).
 * One subscription's period is ended with the simulator's `POST /stripe-sim/sim/subscriptions/:id/end-period`
 * (its clock is shared by every worker, so it is never moved).
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_ADMIN } from "./support/admin";
import { hasDb, NO_DB_REASON, withDb } from "./support/trading";
import { seedMonthlyPlan } from "./support/plans";
import { createVerifiedUser } from "./support/users";

const CARD_OK = "4242 4242 4242 4242";
/** Attaches, then fails every charge (the simulator's and Stripe's test card). */
const CARD_FAILS_LATER = "4000 0000 0000 0341";
const DATE = String.raw`\d{2}/\d{2}/\d{4}`;

interface StatusView {
  subscriptionStatus: string;
  hasValidLicense: boolean;
  stripeSubscriptionId: string | null;
  stripeCustomerId: string | null;
  license: { kind: string } | null;
}

test.beforeAll(async () => {
  if (hasDb()) await seedMonthlyPlan();
});

async function status(page: Page): Promise<StatusView> {
  const res = await page.request.get("/api/subscriptions/status");
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()) as StatusView;
}

/** A verified trial user signed in through the API (cookie shared with the page). */
async function trialUser(page: Page): Promise<{ email: string; password: string }> {
  const creds = await createVerifiedUser(page.request);
  const res = await page.request.post("/api/auth/login", { data: creds });
  expect(res.ok(), await res.text()).toBeTruthy();
  return creds;
}

/** Checkout of 'Mensal' paid on the simulator's hosted page; waits for the paid licence. */
async function subscribe(page: Page, email: string): Promise<string> {
  const plans = (await (await page.request.get("/api/plans/active")).json()) as { plans: { id: string; name: string }[] };
  const plan = plans.plans.find((p) => p.name === "Mensal");
  expect(plan, "plano Mensal").toBeTruthy();
  const r = await page.request.post("/api/subscriptions/create-checkout-session", { data: { planId: plan!.id } });
  expect(r.ok(), await r.text()).toBeTruthy();
  await page.goto(((await r.json()) as { checkoutUrl: string }).checkoutUrl);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="card"]').fill(CARD_OK);
  await page.getByRole("button", { name: "Subscribe" }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard", { timeout: 20_000 });
  await expect.poll(async () => `${(await status(page)).subscriptionStatus} ${(await status(page)).license?.kind}`, { timeout: 20_000 }).toBe("active paid");
  return (await status(page)).stripeSubscriptionId!;
}

/** The simulator's control API (loopback callers only: the test runner). */
async function simControl(request: APIRequestContext, path: string, data: unknown) {
  const res = await request.post(`/stripe-sim/sim${path}`, { data });
  expect(res.ok(), `${path}: ${await res.text()}`).toBeTruthy();
  return res.json();
}

/** The Billing Portal session for the page's user, then one of its forms. */
async function portalForm(page: Page, action: "cancel" | "card", fields: Record<string, string>) {
  const r = await page.request.post("/api/billing/portal-session");
  expect(r.ok(), await r.text()).toBeTruthy();
  const { portalUrl } = (await r.json()) as { portalUrl: string };
  const res = await page.request.post(`${new URL(portalUrl).pathname}/${action}`, { form: fields, maxRedirects: 0 });
  expect(res.status(), await res.text()).toBeLessThan(400);
}

/** The dashboard's subscription card state line. */
async function cardState(page: Page) {
  await page.goto("/dashboard");
  return page.getByTestId("subscription-card").getByTestId("subscription-state");
}

test.describe("subscription states on the dashboard and /billing (issue 22 items 1-3)", () => {
  test("paid → 'Ativa'; cancelled at the period end → 'Cancelada (acesso até …)' and the scheduled banner; period over → no banner beside 'Cancelada' nor with an expired licence", async ({ page }) => {
    test.skip(!hasDb(), NO_DB_REASON);
    test.setTimeout(120_000);
    const { email } = await trialUser(page);
    await expect(await cardState(page)).toHaveText("Teste grátis");
    const subscriptionId = await subscribe(page, email);
    await expect(await cardState(page)).toHaveText("Ativa");

    await portalForm(page, "cancel", { subscription: subscriptionId });
    await expect.poll(async () => ((await (await page.request.get("/api/subscriptions/status")).json()) as { subscriptionDetails: { cancel_at_period_end: boolean } | null }).subscriptionDetails?.cancel_at_period_end, { timeout: 20_000 }).toBe(true);
    await expect(await cardState(page)).toHaveText(new RegExp(`^Cancelada \\(acesso até ${DATE}\\)$`));
    await page.goto("/billing");
    await expect(page.getByTestId("cancel-scheduled")).toHaveText(new RegExp(`^Cancelamento agendado para ${DATE}\\. Você mantém o acesso até lá\\.$`));
    await expect(page.getByTestId("subscription-status")).toHaveText("Ativa");

    // The period ends: Stripe deletes the subscription. The cancellation is no longer "scheduled".
    await simControl(page.request, `/subscriptions/${subscriptionId}/end-period`, {});
    await expect.poll(async () => (await status(page)).subscriptionStatus, { timeout: 20_000 }).toBe("canceled");
    await page.goto("/billing");
    await expect(page.getByTestId("subscription-status")).toHaveText("Cancelada");
    await expect(page.getByTestId("cancel-scheduled")).toHaveCount(0);
    // And with the licence over too ('Licença Expirada'): still no banner.
    await withDb((sql) => sql`update licenses set end_date = now() - interval '1 hour' where user_id = (select id from users where email = ${email.toLowerCase()})`);
    await page.goto("/billing?assinar=0");
    await expect(page.getByTestId("licence-status")).toHaveText("Expirada");
    await expect(page.getByTestId("cancel-scheduled")).toHaveCount(0);
    await expect(await cardState(page)).toHaveText("Cancelada");
  });

  test("a failed renewal → 'Pagamento Pendente' on the card; /billing lands on the fix (portal, 'Já paguei'), never the checkout; a new card pays it", async ({ page }) => {
    test.setTimeout(120_000);
    const { email } = await trialUser(page);
    const subscriptionId = await subscribe(page, email);
    const customerId = (await status(page)).stripeCustomerId;
    expect(customerId, "stripeCustomerId no status").toBeTruthy();
    await simControl(page.request, `/customers/${customerId}/card`, { number: CARD_FAILS_LATER });
    await simControl(page.request, `/subscriptions/${subscriptionId}/end-period`, {});
    await expect.poll(async () => (await status(page)).subscriptionStatus, { timeout: 20_000 }).toBe("past_due");

    await expect(await cardState(page)).toHaveText("Pagamento Pendente");
    await page.goto("/billing");
    const pending = page.getByTestId("payment-pending");
    await expect(pending).toContainText("Pagamento pendente");
    await expect(page.getByTestId("payment-pending-portal")).toContainText("Atualizar cartão no portal");
    await expect(page.getByTestId("payment-pending-validate")).toHaveText("Já paguei, validar agora");
    await expect(page.getByTestId("subscription-modal")).toHaveCount(0);
    await expect(page.getByRole("dialog", { name: "Assinatura Necessária" })).toHaveCount(0);
    await expect(page.getByTestId("open-subscription-modal")).toHaveCount(0);
    // 'Já paguei' before paying: not yet, and still no checkout.
    await page.getByTestId("payment-pending-validate").click();
    await expect(page.getByTestId("validate-message")).toContainText("Ainda não identificamos o seu pagamento");
    await expect(page.getByTestId("subscription-modal")).toHaveCount(0);

    // A new card in the portal charges the open invoice; 'Já paguei, validar agora' confirms it.
    await portalForm(page, "card", { card: CARD_OK });
    await page.goto("/billing");
    await page.getByTestId("payment-pending-validate").click();
    await expect(page.getByTestId("subscription-status")).toHaveText("Ativa", { timeout: 20_000 });
    await expect(page.getByTestId("payment-pending")).toHaveCount(0);
    await expect(await cardState(page)).toHaveText("Ativa");
  });

  test("a trial extended by an admin → 'Licença manual' on the card", async ({ page, playwright, baseURL }) => {
    await trialUser(page);
    const me = (await (await page.request.get("/api/auth/me")).json()) as { user: { id: string } };
    const admin = await playwright.request.newContext({ baseURL });
    try {
      const login = await admin.post("/api/auth/login", { data: E2E_ADMIN });
      expect(login.ok(), await login.text()).toBeTruthy();
      const extend = await admin.post(`/api/admin/users/${me.user.id}/extend-license`, { data: { days: 30 } });
      expect(extend.ok(), await extend.text()).toBeTruthy();
    } finally {
      await admin.dispose();
    }
    expect((await status(page)).license?.kind).toBe("manual");
    await expect(await cardState(page)).toHaveText("Licença manual");
  });
});

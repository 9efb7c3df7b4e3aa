/**
 * /billing 'Gerenciar Assinatura' (PRODUCT.md §2 Billing and Subscription modal, §4 subscription
 * statuses and licence display, §7 upcoming invoice, §8 "Subscription", §9; issue 9). Requires login.
 *
 * The page: plan, status (Ativa / Pagamento Pendente / Cancelada / Inativa), amount (BRL pt-BR,
 * others en-US), next charge from the upcoming invoice (Stripe customer + active subscription) else
 * the licence end, the licence (Válida + end + first 8 characters of the key / Expirada /
 * Processando / Sem licença), 'Cancelamento agendado para …' (only while the subscription still runs with a
 * future period end, never beside a cancelled subscription or an expired licence: subscription-state.ts), the 'Pagamento pendente' warning with
 * 'Já paguei, validar agora', 'Tentar Novamente' when the data cannot be read, the Billing Portal
 * button for active subscriptions only (new tab) and 'Assinar' otherwise.
 *
 * A subscriber whose renewal is unpaid (past_due, unpaid: `needsCardFix`; issue 22 item 3) gets neither
 * the modal 'Assinatura Necessária' nor 'Assinar' (the server refuses that checkout): the 'Pagamento
 * pendente' section (payment-pending.tsx) offers the Billing Portal to update the card and 'Já paguei,
 * validar agora', whose answer shows on this page.
 *
 * The subscription modal opens over the page when the user has no active subscription, and with
 * `?assinar=1`; it is closable (`?assinar=0`) only with a valid licence (billing-view.ts
 * `modalState`). The action serves the modal and the page, with and without JavaScript:
 * `intent=subscribe` (planId, terms) → 303 to Stripe Checkout (`js=1`: `{checkoutUrl}`),
 * `intent=validate` → 303 to /dashboard when the payment is confirmed, else a message (`stay=1`, the
 * 'Pagamento pendente' section: a message either way, the page re-read),
 * `intent=portal` → 303 to the Billing Portal (`js=1`: `{portalUrl}`). The action is a `pageAction`
 * (app/route-support/page-action.server.ts: Origin check, signed-in user, form body, pino logging) with
 * one schema per form (app/lib/billing-form.ts); a failure answers §8's message of its intent (a domain
 * error's status, else 500; 'Já paguei' that cannot read the subscription answers 200 with its message).
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation, useRevalidator, useSearchParams } from "@remix-run/react";
import { useMemo, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { msg } from "../../core/i18n/message";
import {
  epochToIso,
  isActiveSubscription,
  isPaymentPending,
  isSafeRedirect,
  MODAL_PARAM,
  modalState,
  needsCardFix,
  nextCharge,
  paymentConfirmed,
  subscriptionAmount,
  subscriptionTone,
} from "~/components/billing/billing-view";
import { PaymentPendingSection } from "~/components/billing/payment-pending";
import { AlertIcon, CardIcon, ExternalIcon, ShieldIcon } from "~/components/icons";
import { ScheduledCancelBanner } from "~/components/subscription-state";
import { SubscriptionModal, type ModalNotice, type ModalPlan, type SubscribeResult } from "~/components/subscription-modal";
import { Badge, Banner, Button, Card, Spinner } from "~/components/ui";
import { toLanguage, translateMsg, type Language } from "~/i18n";
import { metaTitle, useDisplay } from "~/lib/hooks";
import { portalFormSchema, subscribeFormSchema, subscribeIssueKey, validateFormSchema } from "~/lib/billing-form";
import { pageAction } from "~/route-support/page-action.server";
import { requireAppUser } from "~/route-support/pages.server";
import { subscriptionState } from "~/lib/subscription-state";
import { licenceLabel, subscriptionLabel } from "~/lib/trading";
import { publicUser } from "~/services/identity/auth.server";
import { createCheckout, createPortalSession, recheckSubscription, subscriptionStatus, upcomingInvoice, type SubscriptionStatusView } from "~/services/billing/billing.server";
import { httpStatusOf, type DomainError } from "~/services/platform/errors.server";
import { activePlans } from "~/services/billing/plans.server";
import { logger } from "~/services/platform/logger.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "billing", "meta");

/** Where the page action lives (the modal posts here). */
const ACTION = "/billing";

/** A text of the `billing` catalog in a language. */
function say(key: string, language: Language): string {
  return translateMsg(msg(`billing:${key}`), language);
}

/** The licence as the page shows it. */
interface LicenceInfo {
  status: string;
  key: string | null;
  endDate: string | null;
  planName: string | null;
  kind: string | null;
}

/** Logs a failed read of the page (the page still renders, with its error state). */
function loadFailed(what: string, err: unknown): void {
  logger().error({ err: err instanceof Error ? err.stack : String(err), page: ACTION }, what);
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAppUser(request);
  const language = toLanguage(user.preferences?.language);
  const [statusResult, plansResult] = await Promise.allSettled([subscriptionStatus(user), activePlans(language)]);

  let view: SubscriptionStatusView | null = null;
  if (statusResult.status === "fulfilled") view = statusResult.value;
  else loadFailed("falha ao ler a assinatura", statusResult.reason);

  // Without the status view the modal still needs to know whether the user holds a licence (our own books).
  let access: { subscriptionStatus: string; hasValidLicense: boolean };
  let licence: LicenceInfo;
  if (view) {
    access = { subscriptionStatus: view.subscriptionStatus, hasValidLicense: view.hasValidLicense };
    licence = { status: view.licenseStatus, key: view.license?.key ?? null, endDate: view.license?.endDate ?? null, planName: view.license?.planName ?? null, kind: view.license?.kind ?? null };
  } else {
    const pub = await publicUser(user);
    access = { subscriptionStatus: pub.subscriptionStatus, hasValidLicense: pub.hasValidLicense };
    licence = { status: pub.licenseStatus, key: pub.license?.key ?? null, endDate: pub.license?.endDate ?? null, planName: pub.license?.planName ?? null, kind: null };
  }

  let upcoming: Awaited<ReturnType<typeof upcomingInvoice>> = null;
  if (view?.stripeCustomerId && view.subscriptionStatus === "active") {
    try {
      upcoming = await upcomingInvoice(user);
    } catch (err) {
      loadFailed("falha ao ler a próxima fatura", err);
    }
  }

  const plans: ModalPlan[] =
    plansResult.status === "fulfilled"
      ? plansResult.value.map((p) => ({
          id: p.id,
          name: p.name,
          description: p.description,
          formattedPrice: p.formattedPrice,
          formattedDuration: p.formattedDuration,
          intervalCount: p.intervalCount,
          features: p.features,
          isHighlighted: p.isHighlighted,
          isDefault: p.isDefault,
        }))
      : [];
  if (plansResult.status === "rejected") loadFailed("falha ao carregar planos", plansResult.reason);

  const details = view?.subscriptionDetails ?? null;
  const price = details?.items.data[0]?.price ?? null;
  return {
    language,
    statusError: !view,
    access,
    licence,
    paymentsConfigured: view?.paymentsConfigured ?? false,
    subscription: view
      ? {
          status: view.subscriptionStatus,
          hasCustomer: !!view.stripeCustomerId,
          planName: price?.product.name ?? view.license?.planName ?? null,
          amount: subscriptionAmount(price, language),
          next: nextCharge({ subscriptionStatus: view.subscriptionStatus, stripeCustomerId: view.stripeCustomerId, upcoming, licenseEndDate: view.license?.endDate ?? null }),
          // Issue 22: 'Cancelamento agendado' only while the subscription still runs, with a future period end and a licence not expired.
          state: subscriptionState({
            subscriptionStatus: view.subscriptionStatus,
            licenseStatus: view.licenseStatus,
            license: view.license,
            cancelAtPeriodEnd: details?.cancel_at_period_end,
            periodEnd: details ? epochToIso(details.cancel_at ?? details.current_period_end) : null,
          }),
        }
      : null,
    plans,
    plansError: plansResult.status === "rejected",
    loadedAt: new Date().toISOString(),
  };
}

/** What the action answers (messages in the user's language). */
export type BillingActionResult =
  | SubscribeResult
  | { intent: "validate"; ok: true; tone: "success"; message: string }
  | { intent: "validate"; ok: false; tone: "warning" | "error"; message: string }
  | { intent: "portal"; ok: true; portalUrl: string }
  | { intent: "portal"; ok: false; message: string }
  | { intent: "unknown"; ok: false; message: string };

export async function action({ request }: ActionFunctionArgs) {
  const answer = (r: BillingActionResult, status = 200) => data<BillingActionResult>(r, { status });
  /** A refused subscribe keeps the chosen plan selected in the modal. */
  const subscribeFailed = (field: (name: string) => string, message: string, status: number) =>
    answer({ intent: "subscribe", ok: false, message, planId: field("planId").trim() || null }, status);
  /** A failed intent: the domain error's status (`err`), else 500; the messages are §8's (a refused subscribe says why). */
  const failed = ({ intent, field, language }: { intent: string; field: (name: string) => string; language: Language }, err: DomainError | null) => {
    if (intent === "subscribe") return subscribeFailed(field, err ? err.messageIn(language) : say("errors.checkout", language), err ? httpStatusOf(err) : 500);
    // 'Já paguei' that cannot reach the subscription: an answer on the page, not a failure.
    if (intent === "validate") return answer({ intent: "validate", ok: false, tone: "error", message: say("errors.status", language) });
    return answer({ intent: "portal", ok: false, message: say("errors.portal", language) }, err ? httpStatusOf(err) : 500);
  };
  return pageAction(request, {
    page: ACTION,
    user: () => requireAppUser(request),
    language: (user) => user.preferences?.language,
    crossSite: (message) => answer({ intent: "unknown", ok: false, message }, 403),
    intents: {
      subscribe: async ({ user, form, field, language }) => {
        const parsed = subscribeFormSchema.safeParse(Object.fromEntries(form));
        if (!parsed.success) return subscribeFailed(field, translateMsg(msg(subscribeIssueKey(parsed.error.issues[0])), language), 400);
        const { checkoutUrl } = await createCheckout(user, parsed.data.planId);
        if (!isSafeRedirect(checkoutUrl)) throw new Error(`URL de checkout inesperada: ${String(checkoutUrl).slice(0, 80)}`);
        if (parsed.data.js) return answer({ intent: "subscribe", ok: true, checkoutUrl });
        return redirect(checkoutUrl, 303);
      },
      validate: async ({ user, language, parse }) => {
        const { stay } = parse(validateFormSchema);
        const view = await recheckSubscription(user);
        if (paymentConfirmed(view)) {
          if (stay) return answer({ intent: "validate", ok: true, tone: "success", message: say("page.validated", language) });
          return redirect("/dashboard", 303);
        }
        return answer({ intent: "validate", ok: false, tone: "warning", message: say("errors.notConfirmed", language) });
      },
      portal: async ({ user, parse }) => {
        const { js } = parse(portalFormSchema);
        const { portalUrl } = await createPortalSession(user);
        if (!isSafeRedirect(portalUrl)) throw new Error(`URL do portal inesperada: ${String(portalUrl).slice(0, 80)}`);
        if (js) return answer({ intent: "portal", ok: true, portalUrl });
        return redirect(portalUrl, 303);
      },
    },
    fallback: ({ language }) => answer({ intent: "unknown", ok: false, message: translateMsg(msg("api:invalidData"), language) }, 400),
    domainError: (err, ctx) => failed(ctx, err),
    internal: (_err, ctx) => failed(ctx, null),
  });
}

/** The billing page, with the subscription modal over it when needed. */
export default function BillingPage() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as BillingActionResult | undefined;
  const [searchParams] = useSearchParams();
  const { t } = useTranslation("billing");
  const fmt = useDisplay();
  const { revalidate, state: revalidation } = useRevalidator();
  const navigation = useNavigation();

  const subscribeFailed = actionData?.intent === "subscribe" && !actionData.ok ? actionData : null;
  const modal = modalState({ ...d.access, param: searchParams.get(MODAL_PARAM), forced: !!subscribeFailed });
  // One notice object per action answer (the modal shows the latest of these and its fetcher's answers).
  const validateResult = actionData?.intent === "validate" ? actionData : null;
  const validateNotice = useMemo<ModalNotice | null>(
    () => (validateResult && !validateResult.ok ? { tone: validateResult.tone, text: validateResult.message } : null),
    [validateResult],
  );
  const modalNotice = useMemo<ModalNotice | null>(
    () => (actionData?.intent === "subscribe" && !actionData.ok ? { tone: "error", text: actionData.message } : validateNotice),
    [actionData, validateNotice],
  );
  const portalError = actionData?.intent === "portal" && !actionData.ok ? actionData.message : null;
  const otherError = actionData?.intent === "unknown" ? actionData.message : null;

  const sub = d.subscription;
  const active = isActiveSubscription(d.access.subscriptionStatus);
  const pending = isPaymentPending(d.access.subscriptionStatus);
  // past_due / unpaid: the card is the fix, never a new checkout (the server refuses it).
  const cardFix = needsCardFix(d.access.subscriptionStatus);
  const lic = licenceLabel(d.licence.status);
  const validating = navigation.state !== "idle" && navigation.formData?.get("intent") === "validate";

  function retry(e: MouseEvent) {
    e.preventDefault();
    revalidate();
  }

  // The page behind the modal is inert (React 18 has no `inert` prop: the attribute is passed as is).
  const inert = modal.open ? ({ inert: "" } as Record<string, string>) : {};

  return (
    <>
      <main className="mx-auto max-w-6xl space-y-5 px-4 pb-8 pt-4 md:pt-8" {...inert}>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h1 className="text-2xl font-bold text-white">{t("title")}</h1>
            <p className="text-sm text-slate-400">{t("subtitle")}</p>
          </div>
          {!active && !cardFix && (
            <Link
              to={`?${MODAL_PARAM}=1`}
              preventScrollReset
              className="inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-emerald-500 px-4 py-2.5 text-sm font-semibold text-slate-950 hover:bg-emerald-400"
              data-testid="open-subscription-modal"
            >
              <CardIcon size={18} />
              {t("subscribe")}
            </Link>
          )}
        </div>

        {portalError && <Banner tone="error">{portalError}</Banner>}
        {otherError && <Banner tone="error">{otherError}</Banner>}
        {validateResult && !modal.open && (
          <Banner tone={validateResult.tone}>
            <span data-testid="validate-message">{validateResult.message}</span>
          </Banner>
        )}

        {d.statusError && (
          <Card data-testid="billing-load-error">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p role="alert" className="flex items-center gap-2 text-rose-200">
                <AlertIcon size={18} className="shrink-0" />
                {t("errors.load")}
              </p>
              <a
                href="/billing"
                onClick={retry}
                className="inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-white/10 px-4 py-2.5 text-sm font-semibold text-slate-100 hover:bg-white/15"
                data-testid="billing-retry"
              >
                {revalidation === "loading" && <Spinner />}
                {t("retry")}
              </a>
            </div>
          </Card>
        )}

        {pending && <PaymentPendingSection action={ACTION} canOpenPortal={!!sub?.hasCustomer} cardFix={cardFix} validating={validating} />}

        {sub && <ScheduledCancelBanner state={sub.state} />}

        <div className="grid gap-4 md:grid-cols-2">
          {sub && (
            <Card
              title={
                <span className="flex items-center gap-2">
                  <CardIcon size={16} /> {t("page.subscriptionTitle")}
                </span>
              }
              action={
                <Badge tone={subscriptionTone(sub.status)} data-testid="subscription-status">
                  {t(`common:${subscriptionLabel(sub.status)}`)}
                </Badge>
              }
              data-testid="subscription-summary"
            >
              <p className="text-lg font-semibold text-white" data-testid="subscription-plan">
                {sub.planName ?? t("page.noPlan")}
              </p>
              <dl className="mt-3 space-y-1.5 text-sm">
                <div className="flex justify-between gap-2">
                  <dt className="text-slate-400">{t("page.amount")}</dt>
                  <dd className="tabular-nums text-slate-200" data-testid="subscription-amount">
                    {sub.amount ?? "—"}
                  </dd>
                </div>
                <div className="flex justify-between gap-2">
                  <dt className="text-slate-400">{sub.next.kind === "licenceEnd" ? t("page.validUntil") : t("page.nextCharge")}</dt>
                  <dd className="text-slate-200" data-testid="subscription-next">
                    {fmt.date(sub.next.date)}
                  </dd>
                </div>
              </dl>
              {/* Pending payments get the portal in the 'Pagamento pendente' section above (ADR 0014, issue 22 item 3). */}
              {active && sub.hasCustomer ? (
                <PortalButton />
              ) : (
                !active && !pending && <p className="mt-3 text-sm text-slate-400">{t("page.notSubscribed")}</p>
              )}
            </Card>
          )}

          <Card
            title={
              <span className="flex items-center gap-2">
                <ShieldIcon size={16} /> {t("page.licenceTitle")}
              </span>
            }
            action={
              <Badge tone={lic.tone} data-testid="licence-status">
                {t(`common:${lic.key}`)}
              </Badge>
            }
            data-testid="licence-summary"
          >
            {d.licence.status === "pending" ? (
              <p className="text-sm text-slate-300">{t("common:licence.pendingHint")}</p>
            ) : d.licence.status === "none" ? (
              <p className="text-sm text-slate-300">{t("page.notSubscribed")}</p>
            ) : (
              <dl className="space-y-1.5 text-sm">
                {d.licence.planName && (
                  <div className="flex justify-between gap-2">
                    <dt className="text-slate-400">{t("page.plan")}</dt>
                    <dd className="text-right text-slate-200">{d.licence.planName}</dd>
                  </div>
                )}
                <div className="flex justify-between gap-2">
                  <dt className="text-slate-400">{t("page.licenceEnd")}</dt>
                  <dd className="text-slate-200" data-testid="licence-end">
                    {fmt.date(d.licence.endDate)}
                  </dd>
                </div>
                {d.licence.status === "valid" && d.licence.key && (
                  <div className="flex justify-between gap-2">
                    <dt className="text-slate-400">{t("page.licenceKey")}</dt>
                    <dd className="font-mono text-slate-200" data-testid="licence-key">
                      {d.licence.key.slice(0, 8)}
                    </dd>
                  </div>
                )}
                {d.licence.kind && (
                  <div className="flex justify-between gap-2">
                    <dt className="text-slate-400">{t("page.licenceKind")}</dt>
                    <dd className="text-slate-200">{t(`page.kind.${d.licence.kind}`, { defaultValue: d.licence.kind })}</dd>
                  </div>
                )}
              </dl>
            )}
          </Card>
        </div>
      </main>

      {modal.open && (
        <SubscriptionModal
          plans={d.plans}
          plansError={d.plansError}
          paymentsConfigured={d.paymentsConfigured}
          statusError={d.statusError}
          closable={modal.closable}
          closeHref={`/billing?${MODAL_PARAM}=0`}
          action={ACTION}
          notice={modalNotice}
          selectedPlanId={subscribeFailed?.planId ?? null}
        />
      )}
    </>
  );
}

/**
 * 'Portal de Cobrança' (PRODUCT.md §7: portalUrl opened in a new tab). A native POST with
 * target=_blank, with or without JavaScript: the new tab follows the action's 303 to the portal, or
 * shows this page with 'Erro ao abrir o portal de cobrança. Tente novamente.'. (An earlier version
 * opened a blank tab at the click and set its location after a fetch; under load the tab sometimes
 * never left about:blank, so the browser's own form submission is used instead.)
 */
function PortalButton() {
  const { t } = useTranslation("billing");
  return (
    <div className="mt-4">
      <form method="post" action={ACTION} target="_blank" rel="noopener">
        <input type="hidden" name="intent" value="portal" />
        <Button type="submit" variant="secondary" data-testid="billing-portal">
          {t("page.portal")} <ExternalIcon size={16} />
          <span className="sr-only">{t("common:opensInNewTab")}</span>
        </Button>
      </form>
      <p className="mt-2 text-xs text-slate-400">{t("page.portalHint")}</p>
    </div>
  );
}

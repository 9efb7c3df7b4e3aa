/**
 * The subscription modal 'Assinatura Necessária' (PRODUCT.md §2 Subscription modal, §4, §5, §8
 * "Subscription", §9; issue 9): full screen over a blurred, inert page that does not scroll; the six
 * included features, the plan cards (at most 4 features each, the default plan preselected and
 * marked), the terms checkbox with links to /termos and /privacidade (new tab), the secure-payment
 * notice, an error area, 'Assinar agora' (enabled with a plan and the terms, §5) and 'Já paguei,
 * validar agora'. Closable (close button, Escape) only when the parent says so (a valid licence).
 *
 * Works without JavaScript: subscribing is a plain form POST (planId radio, terms checkbox) to the
 * page action (`intent=subscribe`), which answers 303 to Stripe Checkout, or re-renders the page
 * with the error; 'Já paguei' is a POST (`intent=validate`); closing is a link. With JavaScript the
 * subscribe POST goes through a fetcher (`js=1`: the action answers `{checkoutUrl}`) and the browser
 * is sent there with `window.location.assign`; focus stays inside the dialog and the rest of the
 * document is made inert.
 */
import { Form, Link, useFetcher, useNavigate, useNavigation } from "@remix-run/react";
import clsx from "clsx";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Trans, useTranslation } from "react-i18next";
import { PLAN_CARD_FEATURES } from "~/lib/plans";
import { isSafeRedirect } from "./billing/billing-view";
import { AlertIcon, CheckIcon, ShieldIcon, XIcon } from "./icons";
import { Badge, Button } from "./ui";

/** A plan as the modal shows it (the `PlanView` of plans.server.ts, PRODUCT.md §3 Plan). */
export interface ModalPlan {
  id: string;
  name: string;
  description: string;
  formattedPrice: string;
  formattedDuration: string;
  intervalCount: number;
  features: string[];
  isHighlighted: boolean;
  isDefault: boolean;
}

/** What the page action answers to a subscribe POST sent by the fetcher (`js=1`). */
export type SubscribeResult = { intent: "subscribe"; ok: true; checkoutUrl: string } | { intent: "subscribe"; ok: false; message: string; planId?: string | null };

/** A message for the modal's message area. */
export interface ModalNotice {
  tone: "error" | "warning" | "info";
  text: string;
}

/** The six features every plan includes (PRODUCT.md §2), keys of `billing:modal.features`. */
export const INCLUDED_FEATURES = ["aiTrading", "marketAnalysis", "riskManagement", "push", "support", "reports"] as const;

/** Selector of elements that take keyboard focus (for the focus trap). */
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Scroll lock without JavaScript: the document does not scroll while the modal is in it. */
const SCROLL_LOCK_CSS = "html:has([data-subscription-modal]){overflow:hidden}";

/**
 * Makes everything outside `root` inert while mounted (siblings of `root` and of each of its
 * ancestors up to <body>), moves focus into `focusTarget` and gives it back on unmount.
 */
function useModalIsolation(root: React.RefObject<HTMLElement | null>, focusTarget: React.RefObject<HTMLElement | null>) {
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const touched: Element[] = [];
    let node: Element = el;
    while (node.parentElement && node !== document.body) {
      for (const sibling of Array.from(node.parentElement.children)) {
        if (sibling === node || sibling.hasAttribute("inert") || sibling.tagName === "SCRIPT" || sibling.tagName === "STYLE") continue;
        sibling.setAttribute("inert", "");
        touched.push(sibling);
      }
      node = node.parentElement;
    }
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    focusTarget.current?.focus();
    return () => {
      for (const sibling of touched) sibling.removeAttribute("inert");
      if (previous?.isConnected) previous.focus();
    };
  }, [root, focusTarget]);
}

/** Keeps Tab / Shift+Tab inside `container`. */
function trapTab(e: React.KeyboardEvent, container: HTMLElement | null) {
  if (e.key !== "Tab" || !container) return;
  const items = Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((n) => n.offsetParent !== null || n === document.activeElement);
  if (!items.length) return;
  const first = items[0]!;
  const last = items[items.length - 1]!;
  if (e.shiftKey && (document.activeElement === first || document.activeElement === container)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

/** The modal's inputs. */
export interface SubscriptionModalProps {
  /** Active plans (cheapest first); the default one is preselected. */
  plans: ModalPlan[];
  /** Loading the plans failed ('Erro ao carregar planos de assinatura'). */
  plansError?: boolean;
  /** Stripe is configured; when false subscribing is disabled and a clear message is shown. */
  paymentsConfigured: boolean;
  /** The subscription status could not be read ('Não foi possível verificar o status da assinatura.'). */
  statusError?: boolean;
  /** Whether the user may close it (a valid licence, non-admin: PRODUCT.md §2). */
  closable: boolean;
  /** Where closing leads (a link, so it works without JavaScript). */
  closeHref: string;
  /** The page action handling `intent=subscribe|validate` (e.g. "/billing"). */
  action: string;
  /** A message from the page action's last answer (subscribe error without JavaScript, re-check outcome); pass a new object per answer. */
  notice?: ModalNotice | null;
  /** The plan chosen before a failed POST, kept selected. */
  selectedPlanId?: string | null;
}

/** The full-screen subscription modal (render it only while open). */
export function SubscriptionModal(props: SubscriptionModalProps) {
  const { plans, plansError = false, paymentsConfigured, statusError = false, closable, closeHref, action, notice, selectedPlanId } = props;
  const { t } = useTranslation("billing");
  const navigate = useNavigate();
  const navigation = useNavigation();
  const fetcher = useFetcher<SubscribeResult>({ key: "subscribe" });
  const titleId = useId();
  const descId = useId();
  const newTabId = useId();
  const overlayRef = useRef<HTMLDivElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const subscribeFormRef = useRef<HTMLFormElement>(null);
  const messagesRef = useRef<HTMLDivElement>(null);

  const initialPlan = (selectedPlanId && plans.some((p) => p.id === selectedPlanId) ? selectedPlanId : null) ?? (plans.find((p) => p.isDefault) ?? plans[0])?.id ?? "";
  const [planId, setPlanId] = useState(initialPlan);
  const [terms, setTerms] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const [redirecting, setRedirecting] = useState(false);
  // The latest outcome: a page action's notice (a new object per action) or the fetcher's answer.
  const [outcome, setOutcome] = useState<ModalNotice | null>(notice ?? null);
  useEffect(() => setOutcome(notice ?? null), [notice]);

  // After hydration, read what the user may have chosen before the scripts ran (the inputs are
  // controlled from then on; the server rendered the default plan checked and the terms unticked).
  useEffect(() => {
    setHydrated(true);
    const form = subscribeFormRef.current;
    if (!form) return;
    const checked = form.querySelector<HTMLInputElement>('input[name="planId"]:checked');
    if (checked) setPlanId(checked.value);
    setTerms(!!form.querySelector<HTMLInputElement>('input[name="terms"]')?.checked);
  }, []);

  useModalIsolation(overlayRef, dialogRef);

  // Escape closes when closable.
  useEffect(() => {
    if (!closable) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") navigate(closeHref, { replace: true, preventScrollReset: true });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [closable, closeHref, navigate]);

  // The fetcher's answer: go to Stripe Checkout, or show the error.
  const result = fetcher.data;
  useEffect(() => {
    if (!result || result.intent !== "subscribe") return;
    if (result.ok && isSafeRedirect(result.checkoutUrl)) {
      setOutcome(null);
      setRedirecting(true);
      window.location.assign(result.checkoutUrl);
    } else {
      setRedirecting(false);
      setOutcome({ tone: "error", text: result.ok ? t("errors.checkout") : result.message || t("errors.checkout") });
    }
  }, [result, t]);

  const messages: ModalNotice[] = [];
  if (plansError) messages.push({ tone: "error", text: t("errors.plans") });
  else if (!plans.length) messages.push({ tone: "warning", text: t("errors.noPlans") });
  if (!paymentsConfigured) messages.push({ tone: "warning", text: t("modal.paymentsNotConfigured") });
  if (statusError) messages.push({ tone: "warning", text: t("errors.status") });
  if (outcome && !messages.some((m) => m.text === outcome.text)) messages.push(outcome);

  // Bring a new message into view (it sits above the plans on small screens).
  const messageKey = messages.map((m) => m.text).join("|");
  useEffect(() => {
    if (messageKey && hydrated) messagesRef.current?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
  }, [messageKey, hydrated]);

  const subscribing = fetcher.state !== "idle" || redirecting;
  const validating = navigation.state !== "idle" && navigation.formData?.get("intent") === "validate";
  const canSubscribe = paymentsConfigured && !plansError && plans.length > 0;
  const ready = !!planId && terms;

  const linkClass = "font-semibold text-emerald-300 underline-offset-2 hover:underline";

  return (
    <div
      ref={overlayRef}
      data-subscription-modal=""
      data-testid="subscription-modal"
      className="fixed inset-0 z-50 overflow-y-auto overscroll-contain bg-slate-950/80 backdrop-blur-md"
    >
      <style dangerouslySetInnerHTML={{ __html: SCROLL_LOCK_CSS }} />
      <div className="flex min-h-full items-start justify-center p-0 sm:items-center sm:p-6">
        <div
          ref={dialogRef}
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
          aria-describedby={descId}
          tabIndex={-1}
          onKeyDown={(e) => trapTab(e, dialogRef.current)}
          className="relative w-full max-w-4xl border-white/10 bg-slate-900 p-5 shadow-2xl shadow-black/50 outline-none sm:rounded-3xl sm:border sm:p-8"
        >
          <div className="flex items-start justify-between gap-4">
            <div className="flex items-start gap-3">
              <span className="grid h-11 w-11 shrink-0 place-items-center rounded-2xl bg-amber-500/15 text-amber-300" aria-hidden="true">
                <ShieldIcon size={22} />
              </span>
              <div>
                <h2 id={titleId} className="text-xl font-bold text-white sm:text-2xl">
                  {t("modal.title")}
                </h2>
                <p id={descId} className="mt-1 text-sm text-slate-300">
                  {closable ? t("modal.subtitleOpen") : t("modal.subtitleBlocked")}
                </p>
              </div>
            </div>
            {closable && (
              <Link
                to={closeHref}
                replace
                preventScrollReset
                aria-label={t("modal.close")}
                title={t("modal.close")}
                data-testid="subscription-modal-close"
                className="grid h-11 w-11 shrink-0 place-items-center rounded-xl text-slate-300 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-slate-300"
              >
                <XIcon />
              </Link>
            )}
          </div>

          <div ref={messagesRef} aria-live="polite" className="mt-4 space-y-2 empty:hidden" data-testid="subscription-modal-messages">
            {messages.map((m) => (
              <ModalMessage key={m.text} tone={m.tone}>
                {m.text}
              </ModalMessage>
            ))}
          </div>

          <section aria-labelledby={`${titleId}-features`} className="mt-5 rounded-2xl bg-white/[0.03] p-4 ring-1 ring-white/5">
            <h3 id={`${titleId}-features`} className="text-sm font-semibold text-slate-200">
              {t("modal.featuresTitle")}
            </h3>
            <ul className="mt-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-3" data-testid="included-features">
              {INCLUDED_FEATURES.map((f) => (
                <li key={f} className="flex items-center gap-2 text-sm text-slate-200">
                  <span className="grid h-6 w-6 shrink-0 place-items-center rounded-full bg-emerald-500/15 text-emerald-300" aria-hidden="true">
                    <CheckIcon size={14} />
                  </span>
                  {t(`modal.features.${f}`)}
                </li>
              ))}
            </ul>
          </section>

          <fetcher.Form ref={subscribeFormRef} method="post" action={action} className="mt-5" data-testid="subscribe-form">
            <input type="hidden" name="intent" value="subscribe" />
            {hydrated && <input type="hidden" name="js" value="1" />}
            {plans.length > 0 && (
              <fieldset>
                <legend className="mb-3 text-sm font-semibold text-slate-200">{t("modal.plansTitle")}</legend>
                <div className={clsx("grid gap-3", plans.length > 1 && "md:grid-cols-2", plans.length > 2 && "lg:grid-cols-3")} data-testid="plan-cards">
                  {plans.map((p, i) => (
                    <PlanCard
                      key={p.id}
                      plan={p}
                      checked={planId === p.id}
                      required={i === 0}
                      onSelect={() => setPlanId(p.id)}
                      recommended={t("modal.recommended")}
                    />
                  ))}
                </div>
              </fieldset>
            )}

            <label className="mt-5 flex cursor-pointer items-start gap-3 rounded-2xl bg-white/[0.03] p-3 text-sm text-slate-200 ring-1 ring-white/5">
              <input
                type="checkbox"
                name="terms"
                value="on"
                required
                checked={terms}
                onChange={(e) => setTerms(e.target.checked)}
                className="mt-0.5 h-5 w-5 shrink-0 accent-emerald-500"
                data-testid="terms-checkbox"
              />
              <span>
                <Trans
                  t={t}
                  i18nKey="modal.terms"
                  components={{
                    terms: <a href="/termos" target="_blank" rel="noopener noreferrer" aria-describedby={newTabId} className={linkClass} />,
                    privacy: <a href="/privacidade" target="_blank" rel="noopener noreferrer" aria-describedby={newTabId} className={linkClass} />,
                  }}
                />
                <span id={newTabId} className="sr-only">
                  {t("common:opensInNewTab")}
                </span>
              </span>
            </label>

            <p className="mt-3 flex items-start gap-2 text-xs text-slate-400" data-testid="secure-payment">
              <ShieldIcon size={16} className="mt-0.5 shrink-0 text-emerald-300" />
              <span>{t("modal.secure")}</span>
            </p>

            <Button
              type="submit"
              className="mt-4 w-full text-base"
              loading={subscribing}
              disabled={!canSubscribe || (hydrated && !ready)}
              aria-describedby={hydrated && !ready && canSubscribe ? `${titleId}-req` : undefined}
              data-testid="subscribe-button"
            >
              {redirecting ? t("modal.redirecting") : t("modal.subscribe")}
            </Button>
            {hydrated && !ready && canSubscribe && (
              <p id={`${titleId}-req`} className="mt-2 text-center text-xs text-slate-400">
                {t("modal.requirements")}
              </p>
            )}
          </fetcher.Form>

          <Form method="post" action={action} className="mt-3">
            <input type="hidden" name="intent" value="validate" />
            <Button type="submit" variant="secondary" className="w-full" loading={validating} data-testid="already-paid">
              {t("alreadyPaid")}
            </Button>
          </Form>
        </div>
      </div>
    </div>
  );
}

/** One plan as a selectable card (radio); selection is styled with CSS so it shows without JavaScript. */
function PlanCard({
  plan,
  checked,
  required,
  onSelect,
  recommended,
}: {
  plan: ModalPlan;
  checked: boolean;
  required: boolean;
  onSelect: () => void;
  recommended: string;
}) {
  const per = plan.intervalCount > 1 ? ` / ${plan.formattedDuration}` : `/${plan.formattedDuration}`;
  return (
    <label
      className={clsx(
        "relative flex cursor-pointer flex-col rounded-2xl bg-white/[0.03] p-4 ring-1 ring-white/10 transition hover:ring-white/25",
        "has-[:checked]:bg-emerald-500/10 has-[:checked]:ring-2 has-[:checked]:ring-emerald-400/70 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-emerald-300",
      )}
      data-testid="plan-card"
      data-default={plan.isDefault ? "true" : undefined}
    >
      <span className="flex items-start justify-between gap-2">
        <span className="flex items-center gap-2">
          <input type="radio" name="planId" value={plan.id} required={required} checked={checked} onChange={onSelect} className="h-4 w-4 accent-emerald-500" />
          <span className="font-semibold text-white">{plan.name}</span>
        </span>
        {plan.isDefault && (
          <Badge tone="green" className="shrink-0">
            {recommended}
          </Badge>
        )}
      </span>
      <span className="mt-3 flex items-baseline gap-1">
        <span className="text-2xl font-bold tabular-nums text-white">{plan.formattedPrice}</span>
        <span className="text-sm text-slate-400">{per}</span>
      </span>
      {plan.description && <span className="mt-2 text-sm text-slate-400">{plan.description}</span>}
      {plan.features.length > 0 && (
        <ul className="mt-3 space-y-1.5">
          {plan.features.slice(0, PLAN_CARD_FEATURES).map((f) => (
            <li key={f} className="flex items-start gap-2 text-sm text-slate-300">
              <CheckIcon size={16} className="mt-0.5 shrink-0 text-emerald-300" />
              <span>{f}</span>
            </li>
          ))}
        </ul>
      )}
    </label>
  );
}

/** A line of the modal's message area. */
function ModalMessage({ tone, children }: { tone: ModalNotice["tone"]; children: ReactNode }) {
  const cls = {
    error: "border-rose-400/30 bg-rose-500/10 text-rose-200",
    warning: "border-amber-400/30 bg-amber-500/10 text-amber-200",
    info: "border-sky-400/30 bg-sky-500/10 text-sky-200",
  }[tone];
  return (
    <p role={tone === "error" ? "alert" : "status"} className={clsx("flex items-start gap-2 rounded-xl border px-3.5 py-2.5 text-sm", cls)} data-testid={`modal-${tone}`}>
      <AlertIcon size={16} className="mt-0.5 shrink-0" />
      <span>{children}</span>
    </p>
  );
}

/**
 * /admin/planos — the plans of the admin panel (PRODUCT.md §2 "Plans", §3 Plan, §5 admin plan form,
 * §8 Admin, §9; issue 10). Cards (name, highlight star, price as the public list writes it, duration,
 * description, features, subscribers, edit, delete with the confirm 'Tem certeza que deseja excluir
 * este plano?'), a create/edit form (price in whole units with two decimals, stored ×100 in cents;
 * duration ≥ 1 day; interval; features with at least one input kept, empty ones dropped;
 * highlighted), empty 'Nenhum plano cadastrado.'. Works without JavaScript: the form posts to the
 * page action; delete goes through a confirm step (`?excluir=<id>`), with JavaScript a `confirm()`.
 * Outcomes come back as `?aviso=` codes after a 303 (created, updated, deleted, archived) with
 * `&stripe=` when the Stripe sync did not happen.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { useState, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { msg } from "../../core/i18n/message";
import { decodeIssueMessage } from "../../core/i18n/zod-message";
import { CheckIcon } from "~/components/icons";
import { Badge, Banner, Button, Card, Field } from "~/components/ui";
import { toLanguage, translateMsg } from "~/i18n";
import { centsToUnits, planInputSchema, unitsToCents } from "~/lib/admin-plans";
import { pageAction } from "~/route-support/page-action.server";
import { metaTitle } from "~/lib/hooks";
import { PLAN_CARD_FEATURES } from "~/lib/plans";
import { requireAdminPage } from "~/services/admin/access.server";
import { createPlan, deletePlan, listAdminPlans, updatePlan, type AdminPlanView } from "~/services/admin/plans.server";
import { httpStatusOf } from "~/services/platform/errors.server";
import { logger } from "~/services/platform/logger.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "admin-billing", "plans.meta");

const PAGE = "/admin/planos";

/** The form's values as typed (strings), to show them again after an error. */
interface PlanFormValues {
  id: string | null;
  name: string;
  description: string;
  price: string;
  currency: string;
  durationDays: string;
  interval: string;
  intervalCount: string;
  features: string[];
  isHighlighted: boolean;
  isActive: boolean;
}

const EMPTY_FORM: PlanFormValues = {
  id: null,
  name: "",
  description: "",
  price: "",
  currency: "BRL",
  durationDays: "30",
  interval: "month",
  intervalCount: "1",
  features: [],
  isHighlighted: false,
  isActive: true,
};

/** The form values of a stored plan. */
function formOf(p: AdminPlanView): PlanFormValues {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    price: centsToUnits(p.price),
    currency: p.currency,
    durationDays: String(p.durationDays),
    interval: p.interval,
    intervalCount: String(p.intervalCount),
    features: p.features,
    isHighlighted: p.isHighlighted,
    isActive: p.isActive,
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireAdminPage(request);
  const language = toLanguage(user.preferences?.language);
  let plans: AdminPlanView[] = [];
  let loadError: string | null = null;
  try {
    plans = await listAdminPlans(language);
  } catch (err) {
    logger().error({ err: (err as Error).message }, "admin: falha ao carregar planos");
    loadError = translateMsg(msg("admin-billing:errors.loadPlans"), language);
  }
  return { plans, loadError };
}

/** What the action answers when it does not redirect. */
interface ActionResult {
  ok: false;
  intent: "save" | "delete" | "unknown";
  formError: string | null;
  fieldErrors: Record<string, string>;
  values: PlanFormValues | null;
}

/** An optional number field: empty → undefined (the schema's default), else the number (NaN refused by the schema). */
function num(v: FormDataEntryValue | null): number | undefined {
  const s = String(v ?? "").trim();
  return s === "" ? undefined : Number(s.replace(",", "."));
}

/** The typed values of the plan form (shown again after a refusal). */
function planFormValues(form: FormData): PlanFormValues {
  const value = (k: string, dflt = "") => String(form.get(k) ?? dflt);
  return {
    id: value("id").trim() || null,
    name: value("name"),
    description: value("description"),
    price: value("price"),
    currency: value("currency", "BRL"),
    durationDays: value("durationDays"),
    interval: value("interval", "month"),
    intervalCount: value("intervalCount"),
    features: form.getAll("features").map(String),
    isHighlighted: form.get("isHighlighted") === "on",
    isActive: form.get("isActive") === "on",
  };
}

/** The message of a failed save or delete: the domain error's, else §8's. */
const FAILED: Record<string, string> = { save: "admin-billing:errors.saveFailed", delete: "admin-billing:errors.deleteFailed" };

export async function action({ request }: ActionFunctionArgs) {
  const fail = (status: number, r: Partial<ActionResult>) =>
    data<ActionResult>({ ok: false, intent: "unknown", formError: null, fieldErrors: {}, values: null, ...r }, { status });
  /** A failed save keeps what was typed; a failed delete shows its message. */
  const failed = (status: number, intent: string, form: FormData, formError: string) =>
    intent === "save" ? fail(status, { intent: "save", values: planFormValues(form), formError }) : fail(status, { intent: "delete", formError });
  return pageAction(request, {
    page: PAGE,
    user: () => requireAdminPage(request),
    language: (actor) => actor.user.preferences?.language,
    crossSite: (formError) => fail(403, { formError }),
    intents: {
      save: async ({ user: { user, ip }, form, language }) => {
        const values = planFormValues(form);
        const id = values.id;
        const cents = unitsToCents(values.price);
        if (cents === null) return fail(400, { intent: "save", values, fieldErrors: { price: translateMsg(msg("admin-billing:errors.priceUnits"), language) } });
        const parsed = planInputSchema.safeParse({
          name: values.name,
          description: values.description,
          price: cents,
          currency: values.currency.trim() || undefined,
          durationDays: num(values.durationDays),
          interval: values.interval,
          intervalCount: num(values.intervalCount),
          features: values.features,
          isHighlighted: values.isHighlighted,
          isActive: values.isActive,
        });
        if (!parsed.success) {
          const fieldErrors: Record<string, string> = {};
          for (const issue of parsed.error.issues) {
            const field = String(issue.path[0] ?? "form");
            fieldErrors[field] ??= translateMsg(decodeIssueMessage(issue.message), language);
          }
          return fail(400, { intent: "save", values, fieldErrors });
        }
        const r = id ? await updatePlan({ user, ip }, id, parsed.data, language) : await createPlan({ user, ip }, parsed.data, language);
        const stripe = r.stripe.status === "synced" ? "" : `&stripe=${r.stripe.status}`;
        return redirect(`${PAGE}?aviso=${id ? "updated" : "created"}${stripe}`, 303);
      },
      delete: async ({ user: { user, ip }, field }) => {
        const r = await deletePlan({ user, ip }, field("id"));
        const stripe = r.stripe.status === "synced" ? "" : `&stripe=${r.stripe.status}`;
        return redirect(`${PAGE}?aviso=${r.outcome}${stripe}`, 303);
      },
    },
    fallback: ({ language }) => fail(400, { formError: translateMsg(msg("admin-billing:errors.saveFailed"), language) }),
    domainError: (err, { intent, form, language }) => failed(httpStatusOf(err), intent, form, err.messageIn(language)),
    internal: (_err, { intent, form, language }) => failed(500, intent, form, translateMsg(msg(FAILED[intent]!), language)),
  });
}

const NOTICES: Record<string, string> = { created: "plans.created", updated: "plans.updated", deleted: "plans.deleted", archived: "plans.archivedNotice" };

/** The plans page. */
export default function AdminPlans() {
  const { plans, loadError } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const { t } = useTranslation("admin-billing");
  const editing = params.get("editar");
  const creating = params.get("novo") === "1";
  const deleting = params.get("excluir");
  const editPlan = editing ? plans.find((p) => p.id === editing) : undefined;
  const toDelete = deleting ? plans.find((p) => p.id === deleting) : undefined;
  const failedSave = result?.intent === "save" ? result : null;
  const formValues = failedSave?.values ?? (editPlan ? formOf(editPlan) : creating ? EMPTY_FORM : null);
  const notice = params.get("aviso");
  const stripe = params.get("stripe");

  return (
    <div className="mx-auto max-w-6xl space-y-5">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-white">{t("plans.title")}</h1>
          <p className="mt-1 text-sm text-slate-400">{t("plans.subtitle")}</p>
        </div>
        {!formValues && (
          <Link to={`${PAGE}?novo=1`} className="inline-flex min-h-11 items-center rounded-xl bg-emerald-500 px-4 text-sm font-semibold text-slate-950 hover:bg-emerald-400">
            + {t("plans.new")}
          </Link>
        )}
      </header>

      {notice && NOTICES[notice] && <Banner tone={notice === "archived" ? "warning" : "success"}>{t(NOTICES[notice]!)}</Banner>}
      {stripe === "not_configured" && <Banner tone="warning">{t(notice === "deleted" || notice === "archived" ? "stripe.notConfiguredDelete" : "stripe.notConfigured")}</Banner>}
      {stripe === "failed" && <Banner tone="warning">{t(notice === "deleted" || notice === "archived" ? "stripe.failedDelete" : "stripe.failed")}</Banner>}
      {loadError && <Banner tone="error">{loadError}</Banner>}
      {result?.intent === "delete" && result.formError && <Banner tone="error">{result.formError}</Banner>}
      {editing && !editPlan && !failedSave && !loadError && <Banner tone="error">{t("errors.planNotFound")}</Banner>}

      {toDelete && <DeleteConfirm plan={toDelete} />}
      {formValues && <PlanForm key={formValues.id ?? "new"} values={formValues} fieldErrors={failedSave?.fieldErrors ?? {}} formError={failedSave?.formError ?? null} />}

      {!loadError && plans.length === 0 && (
        <Card>
          <p className="py-6 text-center text-slate-400">{t("plans.empty")}</p>
        </Card>
      )}
      <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {plans.map((p) => (
          <li key={p.id}>
            <PlanCard plan={p} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One plan card. */
function PlanCard({ plan }: { plan: AdminPlanView }) {
  const { t } = useTranslation("admin-billing");
  const submit = useSubmit();
  const onDelete = (e: MouseEvent<HTMLAnchorElement>) => {
    // With JavaScript the browser's confirm; without, the link opens the confirm step.
    e.preventDefault();
    if (window.confirm(t("plans.confirmDelete"))) submit({ intent: "delete", id: plan.id }, { method: "post", action: PAGE });
  };
  const extra = plan.features.length - PLAN_CARD_FEATURES;
  return (
    <Card className={plan.isActive ? "h-full" : "h-full opacity-75"} data-testid="plan-card">
      <div className="flex items-start justify-between gap-2">
        <h2 className="flex items-center gap-1.5 text-lg font-bold text-white">
          {plan.name}
          {plan.isHighlighted && (
            <span className="text-amber-300" title={t("plans.highlighted")} aria-label={t("plans.highlighted")} role="img">
              ★
            </span>
          )}
        </h2>
        {!plan.isActive && <Badge tone="grey">{t("plans.archived")}</Badge>}
      </div>
      <p className="mt-2 text-2xl font-extrabold text-emerald-300">
        {plan.formattedPrice}
        <span className="text-sm font-medium text-slate-400">/{plan.formattedDuration}</span>
      </p>
      <p className="mt-1 text-xs text-slate-400">{t("plans.days", { count: plan.durationDays })}</p>
      <p className="mt-3 text-sm text-slate-300">{plan.description}</p>
      {plan.features.length > 0 && (
        <ul className="mt-3 space-y-1.5 text-sm text-slate-300">
          {plan.features.slice(0, PLAN_CARD_FEATURES).map((f, i) => (
            <li key={i} className="flex items-start gap-2">
              <CheckIcon className="mt-0.5 h-4 w-4 shrink-0 text-emerald-400" aria-hidden="true" />
              <span>{f}</span>
            </li>
          ))}
          {extra > 0 && <li className="text-xs text-slate-400">{t("plans.moreFeatures", { count: extra })}</li>}
        </ul>
      )}
      <p className="mt-3 text-xs text-slate-400">
        {t("plans.subscribers", { count: plan.subscriberCount })} · {plan.stripePriceId ? t("plans.stripeLinked", { price: plan.stripePriceId }) : t("plans.stripeNotLinked")}
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Link to={`${PAGE}?editar=${plan.id}`} className="inline-flex min-h-11 items-center rounded-xl bg-white/10 px-4 text-sm font-semibold text-slate-100 hover:bg-white/15">
          {t("plans.edit")}
        </Link>
        <Link to={`${PAGE}?excluir=${plan.id}`} onClick={onDelete} className="inline-flex min-h-11 items-center rounded-xl bg-rose-500/15 px-4 text-sm font-semibold text-rose-300 hover:bg-rose-500/25">
          {t("plans.delete")}
        </Link>
      </div>
    </Card>
  );
}

/** The confirm step of a delete without JavaScript (`?excluir=<id>`). */
function DeleteConfirm({ plan }: { plan: AdminPlanView }) {
  const { t } = useTranslation("admin-billing");
  return (
    <Card className="border-rose-400/30">
      <p className="font-semibold text-white" role="alert">
        {t("plans.confirmDelete")}
      </p>
      <p className="mt-1 text-sm text-slate-300">
        <strong>{plan.name}</strong> — {plan.formattedPrice}/{plan.formattedDuration}
      </p>
      <p className="mt-1 text-xs text-slate-400">{t("plans.confirmDeleteHint")}</p>
      <Form method="post" action={PAGE} className="mt-3 flex flex-wrap gap-2">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={plan.id} />
        <Button type="submit" variant="danger">
          {t("plans.confirmYes")}
        </Button>
        <Link to={PAGE} className="inline-flex min-h-11 items-center rounded-xl px-4 text-sm font-semibold text-slate-300 hover:bg-white/10">
          {t("plans.cancel")}
        </Link>
      </Form>
    </Card>
  );
}

const selectClass = "block min-h-11 w-full rounded-xl border border-white/10 bg-slate-950/60 px-3.5 py-2.5 text-slate-100 focus:border-emerald-400/60 focus:outline-none focus:ring-2 focus:ring-emerald-400/30";

/** The create/edit form (no-JS: posts to the page action; one blank feature input is always there). */
function PlanForm({ values, fieldErrors, formError }: { values: PlanFormValues; fieldErrors: Record<string, string>; formError: string | null }) {
  const { t } = useTranslation("admin-billing");
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const [features, setFeatures] = useState<string[]>(() => [...values.features.filter((f) => f.trim() !== ""), ""]);
  const setFeature = (i: number, v: string) => setFeatures((list) => list.map((f, j) => (j === i ? v : f)));
  const removeFeature = (i: number) => setFeatures((list) => (list.length <= 1 ? [""] : list.filter((_, j) => j !== i)));
  const err = (k: string) => fieldErrors[k] ?? null;
  return (
    <Card title={values.id ? t("form.titleEdit") : t("form.titleNew")}>
      {formError && <Banner tone="error" className="mb-3">{formError}</Banner>}
      {fieldErrors.form && <Banner tone="error" className="mb-3">{fieldErrors.form}</Banner>}
      <Form method="post" action={PAGE} className="grid gap-4 md:grid-cols-2" noValidate>
        <input type="hidden" name="intent" value="save" />
        {values.id && <input type="hidden" name="id" value={values.id} />}
        <Field id="plan-name" name="name" label={t("form.name")} defaultValue={values.name} required maxLength={100} error={err("name")} />
        <div>
          <Field
            id="plan-price"
            name="price"
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            label={t("form.price")}
            defaultValue={values.price}
            required
            error={err("price")}
          />
          <p id="plan-price-hint" className="mt-1 text-xs text-slate-400">
            {t("form.priceHint")}
          </p>
        </div>
        <div className="md:col-span-2">
          <label htmlFor="plan-description" className="mb-1.5 block text-sm font-medium text-slate-300">
            {t("form.description")}
          </label>
          <textarea
            id="plan-description"
            name="description"
            defaultValue={values.description}
            required
            maxLength={1000}
            rows={3}
            aria-invalid={err("description") ? true : undefined}
            className={selectClass}
          />
          {err("description") && <p className="mt-1 text-xs text-rose-300">{err("description")}</p>}
        </div>
        <Field id="plan-currency" name="currency" label={t("form.currency")} defaultValue={values.currency} maxLength={3} autoCapitalize="characters" error={err("currency")} />
        <Field id="plan-duration" name="durationDays" type="number" min="1" step="1" label={t("form.durationDays")} defaultValue={values.durationDays} required error={err("durationDays")} />
        <div>
          <label htmlFor="plan-interval" className="mb-1.5 block text-sm font-medium text-slate-300">
            {t("form.interval")}
          </label>
          <select id="plan-interval" name="interval" defaultValue={values.interval} className={selectClass}>
            <option value="month">{t("form.intervalMonth")}</option>
            <option value="year">{t("form.intervalYear")}</option>
          </select>
          {err("interval") && <p className="mt-1 text-xs text-rose-300">{err("interval")}</p>}
        </div>
        <Field id="plan-interval-count" name="intervalCount" type="number" min="1" step="1" label={t("form.intervalCount")} defaultValue={values.intervalCount} error={err("intervalCount")} />
        <fieldset className="md:col-span-2">
          <legend className="mb-1.5 text-sm font-medium text-slate-300">{t("form.features")}</legend>
          <p className="mb-2 text-xs text-slate-400">{t("form.featuresHint")}</p>
          <div className="space-y-2">
            {features.map((f, i) => (
              <div key={i} className="flex gap-2">
                <input
                  name="features"
                  value={f}
                  onChange={(e) => setFeature(i, e.target.value)}
                  placeholder={t("form.featurePlaceholder")}
                  aria-label={t("form.featureLabel", { n: i + 1 })}
                  maxLength={200}
                  className={selectClass}
                />
                <button
                  type="button"
                  onClick={() => removeFeature(i)}
                  aria-label={t("form.removeFeature", { n: i + 1 })}
                  className="min-h-11 min-w-11 rounded-xl bg-white/5 text-slate-300 hover:bg-white/10"
                >
                  ×
                </button>
              </div>
            ))}
          </div>
          {err("features") && <p className="mt-1 text-xs text-rose-300">{err("features")}</p>}
          <Button type="button" variant="secondary" className="mt-2" onClick={() => setFeatures((list) => [...list, ""])}>
            + {t("form.addFeature")}
          </Button>
        </fieldset>
        <label className="flex min-h-11 items-center gap-2 text-sm text-slate-200">
          <input type="checkbox" name="isHighlighted" defaultChecked={values.isHighlighted} className="h-5 w-5 accent-emerald-500" />
          {t("form.highlighted")}
        </label>
        <label className="flex min-h-11 items-center gap-2 text-sm text-slate-200">
          <input type="checkbox" name="isActive" defaultChecked={values.isActive} className="h-5 w-5 accent-emerald-500" />
          {t("form.active")}
        </label>
        <div className="flex flex-wrap gap-2 md:col-span-2">
          <Button type="submit" loading={saving}>
            {values.id ? t("form.save") : t("form.create")}
          </Button>
          <Link to={PAGE} className="inline-flex min-h-11 items-center rounded-xl px-4 text-sm font-semibold text-slate-300 hover:bg-white/10">
            {t("form.cancel")}
          </Link>
        </div>
      </Form>
    </Card>
  );
}

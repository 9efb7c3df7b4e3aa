/**
 * /api/admin/plans/{id} (PRODUCT.md §7 Admin; issue 10), admins only (401 anonymous, 403 users):
 * GET → {success, plan}; PUT {name, description, price (cents), currency, durationDays, interval,
 * intervalCount, features, isHighlighted, isActive?} → {success, message, plan, stripe} (synced to
 * Stripe: product updated, a new price when amount/currency/interval changed, the old one
 * deactivated); DELETE → {success, outcome: 'deleted' | 'archived', message} (a plan with
 * subscribers is archived, never hard-deleted). 404 for an unknown plan.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { translateMsg } from "~/i18n";
import { planInputSchema } from "~/lib/admin-plans";
import { requireAdminApi } from "~/services/admin/access.server";
import { adminPlan, deletePlan, updatePlan } from "~/services/admin/plans.server";
import { apiRoute, readBody } from "~/route-support/api.server";

export const loader = ({ request, params }: ActionFunctionArgs) =>
  apiRoute(request, {
    GET: async () => {
      const { user } = await requireAdminApi(request);
      return { success: true, plan: await adminPlan(String(params.id), user.preferences?.language) };
    },
    PUT: async () => {
      const actor = await requireAdminApi(request);
      const input = await readBody(request, planInputSchema);
      const language = actor.user.preferences?.language;
      const { plan, stripe } = await updatePlan(actor, String(params.id), input, language);
      const updated = translateMsg({ key: "admin-billing:plans.updated" }, language);
      const sync = translateMsg(stripe.message, language);
      return { success: true, message: stripe.status === "synced" ? updated : `${updated} ${sync}`, plan, stripe: { status: stripe.status, message: sync } };
    },
    DELETE: async () => {
      const actor = await requireAdminApi(request);
      const language = actor.user.preferences?.language;
      const r = await deletePlan(actor, String(params.id));
      const sync = translateMsg(r.stripe.message, language);
      const text = translateMsg(r.message, language);
      return { success: true, outcome: r.outcome, archived: r.outcome === "archived", message: r.stripe.status === "synced" ? text : `${text} ${sync}`, stripe: { status: r.stripe.status, message: sync } };
    },
  });

/** Every method reaches the same handler, which answers 405 with `Allow` for the others. */
export const action = loader;

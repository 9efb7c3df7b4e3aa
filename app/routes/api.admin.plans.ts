/**
 * GET /api/admin/plans → {success, plans} every plan (archived too) with its subscriber count;
 * POST /api/admin/plans {name, description, price (cents), currency, durationDays, interval,
 * intervalCount, features, isHighlighted} → 201 {success, message, plan, stripe} (PRODUCT.md §7
 * Admin, §5 admin plan form; issue 10). Admins only (401 anonymous, 403 users). The plan is synced
 * to Stripe after the save; `stripe.status` says whether it was ('not_configured': saved locally).
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { translateMsg } from "~/i18n";
import { planInputSchema } from "~/lib/admin-plans";
import { requireAdminApi } from "~/services/admin/access.server";
import { createPlan, listAdminPlans } from "~/services/admin/plans.server";
import { apiRoute, json, readBody } from "~/route-support/api.server";

export const loader = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, {
    GET: async () => {
      const { user } = await requireAdminApi(request);
      return { success: true, plans: await listAdminPlans(user.preferences?.language) };
    },
    POST: async () => {
      const actor = await requireAdminApi(request);
      const input = await readBody(request, planInputSchema);
      const language = actor.user.preferences?.language;
      const { plan, stripe } = await createPlan(actor, input, language);
      const created = translateMsg({ key: "admin-billing:plans.created" }, language);
      const sync = translateMsg(stripe.message, language);
      return json({ success: true, message: stripe.status === "synced" ? created : `${created} ${sync}`, plan, stripe: { status: stripe.status, message: sync } }, 201);
    },
  });

/** Every method reaches the same handler, which answers 405 with `Allow` for the others. */
export const action = loader;

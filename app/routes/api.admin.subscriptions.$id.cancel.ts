/**
 * POST /api/admin/subscriptions/{id}/cancel[?atPeriodEnd=true] → {success, message, subscription} or
 * {success: false, error, message} (PRODUCT.md §4 cancelling, §7 Admin, §8 'Erro ao cancelar
 * assinatura: …'; issue 10): cancels at Stripe now, or at the period end, then applies it to our
 * books at once (the webhook confirms later); audited. Admins only (401/403); 404 unknown
 * subscription; 409 already canceled; 503 payments not configured; 502 Stripe failure.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { translateMsg } from "~/i18n";
import { requireAdminApi } from "~/services/admin/access.server";
import { cancelSubscription } from "~/services/admin/subscriptions.server";
import { apiRoute } from "~/route-support/api.server";

export const action = ({ request, params }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const actor = await requireAdminApi(request);
    const atPeriodEnd = ["true", "1"].includes(new URL(request.url).searchParams.get("atPeriodEnd") ?? "");
    const r = await cancelSubscription(actor, String(params.id), atPeriodEnd);
    return { success: true, message: translateMsg(r.message, actor.user.preferences?.language), subscription: r.subscription };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow`. */
export const loader = action;

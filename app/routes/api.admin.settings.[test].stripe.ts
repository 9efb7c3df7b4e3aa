/**
 * POST /api/admin/settings/test/stripe {stripeSecret?} → {success, message 'Stripe OK'} or 502
 * 'Falha no teste do Stripe: …' (400 for a malformed key or nothing configured): one real Stripe
 * call with the given key or the keys in force (PRODUCT.md §7 Admin, §8; issue 10). Admins only.
 * File name escapes `test` because `*.test.*` files are ignored as routes.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { translateMsg } from "~/i18n";
import { requireAdminApi } from "~/services/admin/access.server";
import { testStripe } from "~/services/admin/connection-tests.server";
import { apiRoute, readBody } from "~/route-support/api.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const { user } = await requireAdminApi(request);
    const result = await testStripe(await readBody(request, z.unknown()));
    return { success: true, message: translateMsg(result.message, user.preferences?.language), source: result.source };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow`. */
export const loader = action;

/** POST /api/oanda-auth/test-token {token, environment} → {accounts} (PRODUCT.md §7 Broker). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, readBody } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { testToken } from "~/services/broker/broker.server";
import { testTokenSchema } from "~/lib/validation";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    await requireApiUser(request);
    const { token, environment } = await readBody(request, testTokenSchema);
    const accounts = await testToken(token, environment);
    return { success: true, environment, accounts };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;

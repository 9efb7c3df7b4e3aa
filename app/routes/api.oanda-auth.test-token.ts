/**
 * POST /api/oanda-auth/test-token {token, environment} → {accounts} (PRODUCT.md §7 Broker). Limited per
 * user (issue 24: `USER_ACTION_RATE_LIMIT` calls a minute, shared by every process): past it 429
 * 'Muitas requisições. Aguarde N segundos…' with Retry-After, and no broker call.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, readBody } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { consumeUserAction } from "~/services/platform/user-rate-limit.server";
import { testToken } from "~/services/broker/broker.server";
import { testTokenSchema } from "~/lib/validation";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const { token, environment } = await readBody(request, testTokenSchema);
    await consumeUserAction(user.id, "oanda.test-token");
    const accounts = await testToken(token, environment);
    return { success: true, environment, accounts };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;

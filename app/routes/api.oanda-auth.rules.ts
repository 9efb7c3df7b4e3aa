/**
 * GET /api/oanda-auth/rules → {rules} (issue 22, broker-rule check): what the AI will and will not
 * do on the connected account, as last checked (at connect, then each sync window), in the user's
 * language; `rules: null` before the first check. 400 'Nenhuma conta Oanda conectada.' without a connection.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { getConnection, NOT_CONNECTED } from "~/services/broker/broker.server";
import { readAccountRules } from "~/services/trading/broker-rules.server";
import { ValidationError } from "~/services/platform/errors.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    const user = await requireApiUser(request);
    if (!(await getConnection(user.id))) throw new ValidationError(NOT_CONNECTED);
    return { rules: await readAccountRules(user.id, user.preferences?.language) };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow`. */
export const action = loader;

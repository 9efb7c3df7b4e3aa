/** GET /api/account/instruments (PRODUCT.md §7 Account): the instruments the connected account offers, and which the AI trades. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { accountInstruments } from "~/services/trading/account-instruments.server";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    const user = await requireApiUser(request);
    return accountInstruments(user.id);
  });

/** Every other method reaches the same handler, which answers 405 with `Allow`. */
export const action = loader;

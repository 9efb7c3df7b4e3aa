/** GET /api/oanda-auth/status → {isConnected, account} (PRODUCT.md §7 Broker, §3 Broker connection). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { brokerStatus } from "~/services/broker.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    const user = await requireApiUser(request);
    return { success: true, ...(await brokerStatus(user.id, user.preferences?.language)) };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;

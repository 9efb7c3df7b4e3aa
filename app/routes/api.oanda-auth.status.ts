/** GET /api/oanda-auth/status → {isConnected, account} (PRODUCT.md §7 Broker, §3 Broker connection). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { brokerStatus } from "~/services/broker.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => ({ success: true, ...(await brokerStatus((await requireApiUser(request)).id)) }));

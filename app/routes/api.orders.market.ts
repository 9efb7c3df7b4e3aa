/**
 * POST /api/orders/market (PRODUCT.md §7 Orders; alias /api/trading/order, server/api-aliases.ts): a
 * manual market order through the AI's risk gate, order intent and books (manual-order.server.ts).
 * Body {instrument, units | side + units/lots, stopLossPips | stopLoss, takeProfitPips | takeProfit,
 * idempotencyKey}; the Idempotency-Key header is read too.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { forgetAccountState } from "~/services/broker/account-cache.server";
import { apiRoute, json, readBody } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { placeManualOrder } from "~/services/trading/manual-order.server";

/** Any JSON object: the fields are read (with Portuguese messages) by core/trading/manual-order.ts. */
const body = z.unknown();

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const raw = await readBody(request, body);
    try {
      const answer = await placeManualOrder(user, raw, request.headers.get("idempotency-key"), user.preferences?.language);
      return json(answer.body, answer.status);
    } finally {
      forgetAccountState(user.id); // the screens read the account fresh after an order
    }
  });

/** Every other method reaches the same handler, which answers 405 with `Allow`. */
export const loader = action;

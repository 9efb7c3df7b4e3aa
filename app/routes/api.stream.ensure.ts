/**
 * POST /api/stream/ensure {instruments:[...]} (PRODUCT.md §7 Streaming): adds instruments to the live
 * prices of the user's environment — the shared upstream stream widens (ADR 0017) and the user's open
 * `/api/stream/prices` connections start receiving them. Session required; same-origin (apiRoute);
 * 400 with a Portuguese message for a missing list, more than `MAX_ENSURE` names or an unsupported
 * instrument (core/instruments.ts `SUPPORTED_INSTRUMENTS`).
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { SUPPORTED_INSTRUMENTS } from "../../core/instruments";
import { apiRoute, readBody } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { getConnection } from "~/services/broker/broker.server";
import { ValidationError } from "~/services/platform/errors.server";
import { priceHub } from "~/services/streams/price-hub.server";
import { streamEnsureSchema as body, streamInstrumentsSchema as list } from "~/route-support/openapi/request-schemas";

/** Most instrument names in one call. */
export const MAX_ENSURE = 10;

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const raw = await readBody(request, body);
    const parsed = list.safeParse(raw.instruments);
    if (!parsed.success) throw new ValidationError(msg("live:ensure.required"), { field: "instruments" });
    const names = [...new Set(parsed.data)];
    if (names.length > MAX_ENSURE) throw new ValidationError(msg("live:ensure.tooMany", { max: MAX_ENSURE }), { field: "instruments" });
    const unsupported = names.find((n) => !(SUPPORTED_INSTRUMENTS as readonly string[]).includes(n));
    if (unsupported !== undefined)
      throw new ValidationError(msg("live:ensure.unsupported", { instrument: unsupported.slice(0, 40), supported: SUPPORTED_INSTRUMENTS.join(", ") }), { field: "instruments" });
    const environment = (await getConnection(user.id))?.environment ?? "practice";
    await priceHub().ensure(environment, names, user.id);
    return { success: true, environment, instruments: names };
  });

export const loader = action;

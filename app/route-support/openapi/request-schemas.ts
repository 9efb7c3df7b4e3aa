/**
 * Request schemas that belong to one JSON API route alone (no form or service shares them): the route
 * parses with them and the OpenAPI document (operations.server.ts) describes them, so the contract is
 * generated from the very schema the route applies (issue 24). Messages are translatable (`zMsg`) or,
 * for the loop start, `bot` message keys the route turns into messages.
 */
import { z } from "zod";
import { zMsg } from "../../../core/i18n/zod-message";
import { DEFAULT_INTERVAL_SEC } from "~/services/trading/bot-status.server";

/** GET /api/trades/account/history `?days=` (default 30, 1–3650). */
export const historyDaysSchema = z.coerce.number().int().min(1).max(3650).default(30);

/** POST /api/trades/{id}/close: `units` 'ALL' (default), a positive integer or its decimal string. */
export const closeTradeSchema = z.object({
  units: z
    .union(
      [
        z.literal("ALL"),
        z.string().regex(/^\d+$/, { error: zMsg("validation:units") }),
        z.number().int({ error: zMsg("validation:units") }).positive({ error: zMsg("validation:units") }),
      ],
      { error: zMsg("validation:units") },
    )
    .default("ALL")
    .transform(String),
});

/** POST /api/trades/ai/loop/start: `intervalSec` 5–3600 (default 60); `rearm: true` confirms the re-arm after a drawdown stop. */
export const loopStartSchema = z.object({
  intervalSec: z.coerce
    .number({ error: "bot:errors.intervalNumber" })
    .int({ error: "bot:errors.intervalInteger" })
    .min(5, { error: "bot:errors.intervalRange" })
    .max(3600, { error: "bot:errors.intervalRange" })
    .default(DEFAULT_INTERVAL_SEC),
  rearm: z.boolean({ error: "bot:errors.rearm" }).optional(),
});

const planRequired = zMsg("validation:billing.planRequired");
/** POST /api/subscriptions/create-checkout-session: the plan to subscribe to. */
export const checkoutSessionSchema = z.object({ planId: z.string({ error: planRequired }).trim().min(1, { error: planRequired }).max(100, { error: planRequired }) });

/** POST /api/stream/ensure: the body, whose `instruments` is then read with `streamInstrumentsSchema`. */
export const streamEnsureSchema = z.object({ instruments: z.unknown().optional() });
/** The instrument names of POST /api/stream/ensure (upper-cased; the route also caps them and checks each is supported). */
export const streamInstrumentsSchema = z.array(z.string().trim().toUpperCase()).min(1);

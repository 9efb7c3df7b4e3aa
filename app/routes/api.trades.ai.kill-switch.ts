/**
 * POST /api/trades/ai/kill-switch {level: "stop_entries"|"pause"|"close_all", confirm: true} → {success, level,
 * changed, isActive, message, closed?, failed?}: the graduated kill switch (issue 22, app/services/trading/kill-switch.server.ts),
 * audited in the notifications. Session auth; like stopping the loop it needs no licence (stopping is always allowed).
 * 400 'Nível inválido…' on another level, 400 'Confirme a parada de emergência…' without `confirm: true`; 409 for
 * 'stop_entries' with the AI off; 'close_all' without a broker connection: 400 (the loop is stopped anyway).
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { msg } from "../../core/i18n/message";
import { isKillSwitchLevel } from "~/lib/kill-switch";
import { apiRoute, readBody } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { ValidationError } from "~/services/platform/errors.server";
import { runKillSwitch } from "~/services/trading/kill-switch.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const body = await readBody(request, z.unknown());
    const { level, confirm } = (body && typeof body === "object" ? body : {}) as { level?: unknown; confirm?: unknown };
    if (!isKillSwitchLevel(level)) throw new ValidationError(msg("kill-switch:errors.level"), { field: "level" });
    if (confirm !== true) throw new ValidationError(msg("kill-switch:errors.confirm"), { field: "confirm" });
    const { title: _title, messageMsg: _messageMsg, ...result } = await runKillSwitch(user.id, level, "app", user.preferences?.language);
    return result;
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;

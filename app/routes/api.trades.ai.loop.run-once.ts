/** POST /api/trades/ai/loop/run-once: runs one tick now (even with the loop off) and returns its decisions. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, ApiError } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { runTick } from "~/services/bot.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const outcome = await runTick(user.id, { force: true }).catch((err: unknown) => {
      throw new ApiError(502, err instanceof Error && "messagePt" in err ? String((err as { messagePt: string }).messagePt) : "Falha ao executar a IA.");
    });
    if (outcome.status === "skipped") return { success: false, message: outcome.reason };
    return { success: true, message: "Ciclo da IA executado.", ...outcome };
  });

/** POST /api/trades/ai/loop/start {intervalSec} (default 60) → {success, message, isActive}. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiRoute, readBody } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { DEFAULT_INTERVAL_SEC, startBot } from "~/services/bot.server";

const body = z.object({
  intervalSec: z.coerce
    .number({ error: "intervalSec deve ser um número." })
    .int({ error: "intervalSec deve ser um número inteiro." })
    .min(5, { error: "intervalSec deve estar entre 5 e 3600 segundos." })
    .max(3600, { error: "intervalSec deve estar entre 5 e 3600 segundos." })
    .default(DEFAULT_INTERVAL_SEC),
});

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const { intervalSec } = await readBody(request, body);
    return startBot(user.id, intervalSec);
  });

/** GET /api/settings → {settings}; PUT /api/settings {settings} or {timeframe} → {settings} (PRODUCT.md §7 Settings, §5 bounds). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { apiRoute, readBody } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { getSettings, saveSettings } from "~/services/settings.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => ({ success: true, settings: await getSettings((await requireApiUser(request)).id) }));

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "PUT", async () => {
    const user = await requireApiUser(request);
    const body = await readBody(request, z.unknown());
    const settings = await saveSettings(user.id, body);
    return { success: true, message: translateMsg(msg("api:settings.saved"), user.preferences?.language), settings };
  });

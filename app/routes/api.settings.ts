/** GET /api/settings → {settings}; PUT /api/settings {settings} or {timeframe} → {settings} (PRODUCT.md §7 Settings, §5 bounds). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { apiRoute, readBody } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { getSettings, saveSettings } from "~/services/trading/settings.server";

/** GET reads, PUT saves; any other method → 405 with `Allow: GET, HEAD, PUT`. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, {
    GET: async () => ({ success: true, settings: await getSettings((await requireApiUser(request)).id) }),
    PUT: async () => {
      const user = await requireApiUser(request);
      const body = await readBody(request, z.unknown());
      const settings = await saveSettings(user.id, body);
      return { success: true, message: translateMsg(msg("api:settings.saved"), user.preferences?.language), settings };
    },
  });

export const action = loader;

/**
 * GET /api/admin/settings → {success, values, meta}; PUT /api/admin/settings {…} → {success, message
 * 'Configurações salvas.', values, meta} (PRODUCT.md §3 System settings, §7 Admin, §8; issue 10).
 * Admins only (anonymous 401, users 403). Secrets are write-only: shown masked, replaced only when a
 * non-empty value is sent, stored encrypted; every save is audited (app/services/admin/settings-update.server.ts).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { requireAdminApi } from "~/services/admin/access.server";
import { getSettingsView } from "~/services/admin/settings.server";
import { saveSystemSettings } from "~/services/admin/settings-update.server";
import { apiRoute, readBody } from "~/route-support/api.server";

/** GET reads, PUT saves; any other method → 405 with `Allow: GET, HEAD, PUT`. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, {
    GET: async () => {
      await requireAdminApi(request);
      return { success: true, ...(await getSettingsView()) };
    },
    PUT: async () => {
      const actor = await requireAdminApi(request);
      const body = await readBody(request, z.unknown());
      const view = await saveSystemSettings(actor, body);
      return { success: true, message: translateMsg(msg("admin-config:saved"), actor.user.preferences?.language), ...view };
    },
  });

export const action = loader;

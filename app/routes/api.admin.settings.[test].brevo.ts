/**
 * POST /api/admin/settings/test/brevo {brevoSmtpLogin, brevoSmtpKey} or an empty body → {success,
 * message 'SMTP OK'} or 502 'Falha no teste do SMTP: …' (400 for bad input or nothing configured):
 * nodemailer `verify()` against the given or stored SMTP settings (PRODUCT.md §7 Admin, §8; issue 10).
 * Admins only. File name escapes `test` because `*.test.*` files are ignored as routes.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { translateMsg } from "~/i18n";
import { requireAdminApi } from "~/services/admin/access.server";
import { testSmtp } from "~/services/admin/connection-tests.server";
import { apiRoute, readBody } from "~/route-support/api.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const { user } = await requireAdminApi(request);
    const result = await testSmtp(await readBody(request, z.unknown()));
    return { success: true, message: translateMsg(result.message, user.preferences?.language) };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow`. */
export const loader = action;

/**
 * POST /api/auth/resend-confirmation {email} → {success, message} (PRODUCT.md §7): the same answer
 * whether or not the e-mail exists; 429 with a Portuguese message inside the 60 s cooldown or past
 * 5 per hour for that e-mail.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, readBody } from "~/route-support/api.server";
import { emailRequestSchema } from "~/lib/validation";
import { clientIp, requestVerificationResend } from "~/services/identity/verification.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const { email } = await readBody(request, emailRequestSchema);
    await requestVerificationResend(email, clientIp(request));
    return { success: true, ok: true, message: "Se o e-mail estiver cadastrado e pendente de confirmação, enviaremos um novo link." };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;

/**
 * POST /api/auth/forgot-password {email} → {success, message} (PRODUCT.md §7, §8): the same answer
 * whether or not the e-mail exists; 429 with a Portuguese message inside the 60 s cooldown or past
 * 5 per hour for that e-mail.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, readBody } from "~/route-support/api.server";
import { emailRequestSchema } from "~/lib/validation";
import { clientIp, requestPasswordReset } from "~/services/identity/verification.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const { email } = await readBody(request, emailRequestSchema);
    await requestPasswordReset(email, clientIp(request));
    return { success: true, message: "Se o e-mail estiver cadastrado, você receberá o link de recuperação." };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;

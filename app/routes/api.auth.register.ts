/**
 * POST /api/auth/register {email, firstName, lastName, password} → 201 {token: null, user, needsVerification: true}
 * (PRODUCT.md §7 Auth). No session is opened: the verification e-mail is queued at once and login
 * waits for the link. (The /auth page instead sends it after the terms step, /auth/contract.)
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, json, readBody } from "~/services/api.server";
import { createUser, publicUser } from "~/services/auth.server";
import { registerSchema } from "~/services/validation";
import { sendVerificationEmail } from "~/services/verification.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const input = await readBody(request, registerSchema);
    const user = await createUser(input);
    await sendVerificationEmail(user);
    return json(
      { success: true, message: "Cadastro iniciado! Redirecionando para aceitar os termos...", token: null, user: await publicUser(user), needsVerification: true },
      { status: 201 },
    );
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;

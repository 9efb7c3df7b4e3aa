/**
 * POST /api/auth/login {email, password, remember?} → {token, user, needsVerification} (PRODUCT.md §7 Auth).
 * A correct password on an unverified e-mail answers 200 `{success:false, needsVerification:true, message}`
 * without a session (§4: the client shows the error and does not log in).
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, json, readBody } from "~/route-support/api.server";
import { createSession, NEEDS_VERIFICATION_MESSAGE, publicUser, verifyLogin } from "~/services/identity/auth.server";
import { clientIp } from "~/services/platform/client-ip.server";
import { loginSchema } from "~/lib/validation";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const input = await readBody(request, loginSchema);
    const user = await verifyLogin(input.email, input.password, clientIp(request));
    if (!user.email_verified_at) return { success: false, needsVerification: true, message: NEEDS_VERIFICATION_MESSAGE, token: null, user: null };
    const { token, setCookie } = await createSession(user.id, request, input.remember);
    return json(
      { success: true, message: "Login realizado com sucesso! Redirecionando...", token, user: await publicUser(user), needsVerification: false },
      { headers: { "Set-Cookie": setCookie } },
    );
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;

/**
 * POST /api/auth/register {email, firstName, lastName, password} → 201 {token, user, needsVerification}
 * (PRODUCT.md §7 Auth).
 * - E-mail verification on (EMAIL_VERIFICATION=on, the default): no session is opened; the verification
 *   e-mail is queued at once and login waits for the link. `token` is null, `needsVerification` true and
 *   `reason` says why ('Verifique seu e-mail para ativar a conta.', in the account's language).
 * - Verification off: the account is created verified and a session opened, as login does: `token` is a
 *   working bearer token (also set as the session cookie), `needsVerification` false.
 * (The /auth page instead sends the e-mail after the terms step, /auth/contract.)
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { translateMsg } from "~/i18n";
import { apiRoute, json, readBody } from "~/route-support/api.server";
import { createSession, createUser, publicUser } from "~/services/identity/auth.server";
import { emailVerificationRequired, VERIFY_TO_ACTIVATE } from "~/services/identity/registration.server";
import { registerSchema } from "~/lib/validation";
import { sendVerificationEmail } from "~/services/identity/verification.server";

const REGISTERED = "Cadastro iniciado! Redirecionando para aceitar os termos...";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const input = await readBody(request, registerSchema);
    if (!emailVerificationRequired()) {
      const user = await createUser({ ...input, verified: true });
      const { token, setCookie } = await createSession(user.id, request);
      return json(
        { success: true, message: REGISTERED, token, user: await publicUser(user), needsVerification: false },
        { status: 201, headers: { "Set-Cookie": setCookie } },
      );
    }
    const user = await createUser(input);
    await sendVerificationEmail(user);
    const reason = translateMsg(VERIFY_TO_ACTIVATE, user.preferences?.language);
    return json({ success: true, message: REGISTERED, token: null, user: await publicUser(user), needsVerification: true, reason }, { status: 201 });
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;

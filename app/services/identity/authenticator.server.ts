/**
 * remix-auth Authenticator for the /auth page: one FormStrategy ("form") that validates the login form
 * with the shared `loginSchema`, checks the credentials with `verifyLogin` and refuses unverified e-mails. The session itself is
 * opened by the route with `createSession` (remix-auth v4 leaves session handling to the app).
 */
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { msg } from "../../../core/i18n/message";
import { issueMsg } from "../../../core/i18n/zod-message";
import { NEEDS_VERIFICATION, verifyLogin, type UserRow } from "./auth.server";
import { loginSchema } from "../../lib/validation";
import { ForbiddenError, ValidationError } from "../platform/errors.server";
import { clientIp } from "../platform/client-ip.server";

/** A verified login: the user and whether to keep the session ('lembrar de mim'). */
export interface LoginResult {
  user: UserRow;
  remember: boolean;
}

/**
 * The app's authenticator; `authenticator.authenticate("form", request)` throws a domain error on failure
 * (its `message` is Portuguese: the /auth page is anonymous).
 */
export const authenticator = new Authenticator<LoginResult>();

authenticator.use(
  new FormStrategy<LoginResult>(async ({ form, request }) => {
    const parsed = loginSchema.safeParse({
      email: form.get("email") ?? undefined,
      password: form.get("password") ?? undefined,
      // An unchecked checkbox is absent from the form: that means "do not remember".
      remember: form.get("remember") === "on" || form.get("remember") === "true",
    });
    if (!parsed.success) throw new ValidationError(issueMsg(parsed.error.issues[0], msg("api:auth.formError")));
    const user = await verifyLogin(parsed.data.email, parsed.data.password, clientIp(request));
    // E-mail verification is required before any session (PRODUCT.md §4, §8).
    if (!user.email_verified_at) throw new ForbiddenError(NEEDS_VERIFICATION, { needsVerification: true, email: user.email });
    return { user, remember: parsed.data.remember };
  }),
  "form",
);

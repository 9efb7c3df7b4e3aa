/**
 * remix-auth Authenticator for the /auth page: one FormStrategy ("form") that validates the login form
 * with the shared `loginSchema`, checks the credentials with `verifyLogin` and refuses unverified e-mails. The session itself is
 * opened by the route with `createSession` (remix-auth v4 leaves session handling to the app).
 */
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { ApiError } from "./api.server";
import { NEEDS_VERIFICATION_MESSAGE, verifyLogin, type UserRow } from "./auth.server";
import { loginSchema } from "./validation";

/** A verified login: the user and whether to keep the session ('lembrar de mim'). */
export interface LoginResult {
  user: UserRow;
  remember: boolean;
}

/** The app's authenticator; `authenticator.authenticate("form", request)` throws ApiError with a Portuguese message on failure. */
export const authenticator = new Authenticator<LoginResult>();

authenticator.use(
  new FormStrategy<LoginResult>(async ({ form }) => {
    const parsed = loginSchema.safeParse({
      email: form.get("email") ?? undefined,
      password: form.get("password") ?? undefined,
      // An unchecked checkbox is absent from the form: that means "do not remember".
      remember: form.get("remember") === "on" || form.get("remember") === "true",
    });
    if (!parsed.success) throw new ApiError(400, parsed.error.issues[0]?.message ?? "Erro ao autenticar. Tente novamente.");
    const user = await verifyLogin(parsed.data.email, parsed.data.password);
    // E-mail verification is required before any session (PRODUCT.md §4, §8).
    if (!user.email_verified_at) throw new ApiError(403, NEEDS_VERIFICATION_MESSAGE, { needsVerification: true, email: user.email });
    return { user, remember: parsed.data.remember };
  }),
  "form",
);

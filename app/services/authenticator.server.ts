/**
 * remix-auth Authenticator for the /auth page: one FormStrategy ("form") that validates the login form
 * with the shared `loginSchema` and checks the credentials with `verifyLogin`. The session itself is
 * opened by the route with `createSession` (remix-auth v4 leaves session handling to the app).
 */
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { ApiError } from "./api.server";
import { verifyLogin, type UserRow } from "./auth.server";
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
    return { user, remember: parsed.data.remember };
  }),
  "form",
);

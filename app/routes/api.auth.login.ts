/** POST /api/auth/login {email, password, remember?} → {token, user, needsVerification} (PRODUCT.md §7 Auth). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, json, readBody } from "~/services/api.server";
import { createSession, publicUser, verifyLogin } from "~/services/auth.server";
import { loginSchema } from "~/services/validation";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const input = await readBody(request, loginSchema);
    const user = await verifyLogin(input.email, input.password);
    const { token, setCookie } = await createSession(user.id, request, input.remember);
    return json(
      { success: true, message: "Login realizado com sucesso! Redirecionando...", token, user: await publicUser(user), needsVerification: false },
      { headers: { "Set-Cookie": setCookie } },
    );
  });

/** POST /api/auth/register {email, firstName, lastName, password} → {token, user} (PRODUCT.md §7 Auth). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, json, readBody } from "~/services/api.server";
import { createSession, createUser, publicUser } from "~/services/auth.server";
import { registerSchema } from "~/services/validation";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const input = await readBody(request, registerSchema);
    const user = await createUser(input);
    const { token, setCookie } = await createSession(user.id, request, true);
    return json(
      { success: true, message: "Cadastro iniciado! Redirecionando para aceitar os termos...", token, user: await publicUser(user) },
      { status: 201, headers: { "Set-Cookie": setCookie } },
    );
  });

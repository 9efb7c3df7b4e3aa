/** POST /api/auth/logout: revokes the session (cookie and bearer token alike). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, json } from "~/route-support/api.server";
import { logout } from "~/services/identity/auth.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => json({ success: true }, { headers: { "Set-Cookie": await logout(request) } }));

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;

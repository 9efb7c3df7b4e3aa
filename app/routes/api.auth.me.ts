/** GET /api/auth/me → {user} of the session (401 'Token inválido ou expirado' without one). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { publicUser, requireApiUser } from "~/services/identity/auth.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => ({ success: true, user: await publicUser(await requireApiUser(request)) }));

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;

/** POST /logout: revokes the session, clears the cookie and goes to /auth (GET just goes home). */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { logout } from "~/services/identity/auth.server";

export const loader = () => redirect("/");

export async function action({ request }: ActionFunctionArgs) {
  return redirect("/auth", { headers: { "Set-Cookie": await logout(request) } });
}

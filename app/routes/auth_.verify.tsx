/**
 * GET /auth/verify?token=… — the link in the verification e-mail (single use, 24 h). Consumes the token
 * and redirects to /auth?verified=true or /auth?error=token_missing|token_invalid|verification_failed
 * (PRODUCT.md §2). A link is necessarily a GET; the token is single-use, so replaying it changes nothing.
 */
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { verifyEmailToken } from "~/services/identity/verification.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token")?.trim() || null;
  const outcome = await verifyEmailToken(token);
  return redirect(outcome === "verified" ? "/auth?verified=true" : `/auth?error=${outcome}`, { headers: { "Referrer-Policy": "no-referrer" } });
}

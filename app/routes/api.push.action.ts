/** POST /api/push/action {token, action}: a one-tap action of a push (Pausar IA, Fechar tudo), authorised by its signed single-use token, no session (ADR 0016). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { pushActionRoute } from "~/route-support/push-routes.server";

export const action = ({ request }: ActionFunctionArgs) => pushActionRoute(request);

/** Every method reaches the same handler, which answers 405 with `Allow` for the wrong ones. */
export const loader = action;

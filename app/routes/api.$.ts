/**
 * Any other `/api/*` path: 404 JSON `{success:false, message}` in the user's language (Portuguese
 * by default), whatever the method — not the app's redirect to / (issue 8 item 10).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { apiError } from "~/route-support/api.server";
import { requestLanguage } from "~/services/identity/request-language.server";

/** The 404 of an unknown API route. */
export const loader = async ({ request }: LoaderFunctionArgs) => apiError(404, translateMsg(msg("guard:notFound"), await requestLanguage(request)));

export const action = loader;

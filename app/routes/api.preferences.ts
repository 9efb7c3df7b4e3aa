/**
 * GET /api/preferences → {success, preferences {language, currency, timezone}}; PUT /api/preferences
 * {language?, currency?, timezone?} (or {preferences: {...}}) → {success, message, preferences}: the
 * signed-in user's own interface preferences (PRODUCT.md §3 User preferences; issue 22: the trader
 * chooses the display currency BRL|USD|EUR, used for amounts converted at the broker's rate). Bad values
 * → 400 with the field's message ("A moeda deve ser BRL, USD ou EUR."); keys not sent are kept.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { apiRoute, readBody } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { getPreferences, savePreferences } from "~/services/identity/preferences.server";

/** The body's preferences: the bare object, or wrapped in `preferences` (as the admin API sends them). */
function preferencesOf(body: unknown): unknown {
  if (body && typeof body === "object" && !Array.isArray(body) && "preferences" in body) return (body as { preferences: unknown }).preferences;
  return body;
}

/** GET reads, PUT saves; any other method → 405 with `Allow: GET, HEAD, PUT`. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, {
    GET: async () => ({ success: true, preferences: await getPreferences((await requireApiUser(request)).id) }),
    PUT: async () => {
      const user = await requireApiUser(request);
      const body = await readBody(request, z.unknown());
      const preferences = await savePreferences(user.id, preferencesOf(body));
      return { success: true, message: translateMsg(msg("display-currency:saved"), preferences.language), preferences };
    },
  });

export const action = loader;

/**
 * The language a request is answered in: the signed-in user's `preferences.language` (pt, en, es),
 * else Portuguese (PRODUCT.md: the interface speaks Portuguese). Used for API error messages.
 */
import { toLanguage, type Language } from "~/i18n";
import { getUser } from "./auth.server";

/** Never throws: an unreadable session means Portuguese. */
export async function requestLanguage(request: Request): Promise<Language> {
  try {
    const user = await getUser(request);
    return toLanguage(user?.preferences?.language);
  } catch {
    return "pt";
  }
}

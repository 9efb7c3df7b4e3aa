/**
 * Reading the body of a page form action (issue 8 item 10): `request.formData()` throws on a missing
 * or odd Content-Type (and on a broken multipart body), which Remix turns into a 500. Page forms are
 * read through `readForm` instead, which answers such requests 415 (not a form type) or 400 (a form
 * type whose body cannot be read) with a message in the reader's language; the page shows it on its
 * error screen. Browsers always send a form type, so only hand-made requests get there.
 */
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { isUnsafeString } from "~/lib/unsafe-text";
import { requestLanguage } from "~/services/identity/request-language.server";

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** Whether a Content-Type is one a form is sent as. */
export function isFormContentType(type: string | null): boolean {
  return FORM_TYPES.has((type ?? "").split(";")[0]!.trim().toLowerCase());
}

/** A plain-text error response that the route's error screen shows (`status — message`). */
function formError(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * The form data of a page action's request.
 * @param language the reader's language when known (else the signed-in user's, else Portuguese)
 * @throws Response 415 when the Content-Type is missing or not a form type; 400 when the body cannot be read as one,
 *   or when a field's name or text holds a NUL or a lone surrogate (`guard:badText`, app/lib/unsafe-text.ts; issue 24).
 */
export async function readForm(request: Request, language?: unknown): Promise<FormData> {
  const say = async (key: string) => translateMsg(msg(key), language ?? (await requestLanguage(request)));
  if (!isFormContentType(request.headers.get("content-type"))) throw formError(415, await say("guard:formType"));
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw formError(400, await say("guard:formMalformed"));
  }
  for (const [name, value] of form) {
    if (isUnsafeString(name) || (typeof value === "string" ? isUnsafeString(value) : isUnsafeString(value.name))) throw formError(400, await say("guard:badText"));
  }
  return form;
}

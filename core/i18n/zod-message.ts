/**
 * Translatable validation messages for zod schemas (ADR 0007). zod keeps one string per issue, and
 * the schemas are shared by the server (API bodies, page actions) and the browser (live validation),
 * so a schema's message cannot be rendered "in the reader's language" when the schema is built.
 *
 * `zMsg(key, params)` returns the message's Portuguese text — byte-identical to what PRODUCT.md and
 * the tests expect, so any code reading `issue.message` keeps working — and records which `Msg`
 * produced it. At an edge that knows the reader, `decodeIssueMessage(text)` turns the text back into
 * its `Msg` (rendered with `formatMsg(t, …)` or `translateMsg(…, language)`); any other text (zod's
 * own defaults) passes through unchanged.
 *
 * The registry is filled when a schema module is evaluated, i.e. wherever the schema runs — on the
 * server and in the browser alike — so the text of an issue can always be decoded where it was made.
 * Only messages built at schema definition time belong here (a bounded set): keys live in core's
 * catalogs (normally the `validation` namespace), which both sides load.
 */
import { renderMsg } from "./index";
import { formatMsg, msg, type Msg, type MsgParam, type Translate } from "./message";

const registry = new Map<string, Msg>();

/**
 * A zod message for `key` (a core catalog key such as "validation:number.range") with its
 * parameters: the Portuguese text, remembered so it can be decoded back into the message.
 * @throws Error when two different messages have the same Portuguese text (they could not be told
 *   apart when decoding: give them different wording).
 */
export function zMsg(key: string, params?: Record<string, MsgParam>): string {
  const m = msg(key, params);
  const text = renderMsg(m, "pt");
  const known = registry.get(text);
  if (!known) registry.set(text, m);
  else if (JSON.stringify(known) !== JSON.stringify(m))
    throw new Error(`zMsg: "${text}" já é o texto de ${known.key}; ${key} precisa de outro texto`);
  return text;
}

/** The message behind an issue text made by `zMsg`; other texts (zod defaults) come back as they are. */
export function decodeIssueMessage(text: string): Msg | string {
  return registry.get(text) ?? text;
}

/** The message of a zod issue (or `fallback` when there is none), ready for `formatMsg`/`translateMsg`. */
export function issueMsg(issue: { message: string } | undefined, fallback: Msg | string): Msg | string {
  return issue ? decodeIssueMessage(issue.message) : fallback;
}

/** An issue text rendered with a translate function (the browser's `t`, or a server instance's). */
export function translateIssue(t: Translate, text: string): string {
  return formatMsg(t, decodeIssueMessage(text));
}

/** Every text `zMsg` has produced so far, with its message (for tests). */
export function registeredIssueMessages(): ReadonlyMap<string, Msg> {
  return registry;
}

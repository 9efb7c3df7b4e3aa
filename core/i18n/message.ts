/**
 * Translatable messages produced away from the screen (engine reasons, risk verdicts, broker and API
 * errors, notifications). A `Msg` is an i18next key ("namespace:path") plus parameters; parameters may
 * themselves be messages (a decision reason embeds the signal's reason). The text is rendered at the
 * edge, in the reader's language (ADR 0007), so a stored message follows a later language change.
 */

/** A message parameter: plain value or a nested message. */
export type MsgParam = string | number | Msg;

/** A key of the catalogs in core/i18n/locales or app/i18n/locales, with its parameters. */
export interface Msg {
  key: string;
  params?: Record<string, MsgParam>;
}

/** Builds a message. */
export function msg(key: string, params?: Record<string, MsgParam>): Msg {
  return params ? { key, params } : { key };
}

/** True for a `Msg`-shaped value (e.g. read back from a jsonb column). */
export function isMsg(value: unknown): value is Msg {
  return typeof value === "object" && value !== null && typeof (value as Msg).key === "string";
}

/** The translate function of an i18next instance (or anything with the same call shape). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * Renders a message (or passes a plain string through) with a translate function; nested messages
 * are rendered first with the same function, so the whole text is in one language.
 */
export function formatMsg(t: Translate, m: Msg | string): string {
  if (typeof m === "string") return m;
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(m.params ?? {})) params[name] = isMsg(value) ? formatMsg(t, value) : value;
  return t(m.key, params);
}

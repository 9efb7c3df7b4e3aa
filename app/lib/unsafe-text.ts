/**
 * The one rule on text the server accepts (issue 24: NUL and lone surrogates gave 500 at 7
 * endpoints): no string of a request — a JSON body's values and keys at any depth, a form's fields —
 * may hold a NUL character (PostgreSQL's text refuses it) or an unpaired UTF-16 surrogate (not
 * Unicode; it cannot be stored or sent as UTF-8 faithfully). `readBody` (the JSON API) and
 * `readForm` (page forms) apply it before any schema, so every endpoint answers 400
 * 'Dados inválidos: o texto contém caracteres não permitidos…' (`guard:badText`) instead of 500.
 */

/** A lone high surrogate (not followed by a low one) or a lone low surrogate (not preceded by a high one). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether one string holds a NUL character or an unpaired surrogate. */
export function isUnsafeString(s: string): boolean {
  return s.includes("\u0000") || LONE_SURROGATE.test(s);
}

/**
 * Whether any string in `value` (a parsed JSON value: its strings, object keys, array items, at any
 * depth; walked without recursion, so a deeply nested body cannot overflow the stack) is unsafe.
 */
export function hasUnsafeText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (isUnsafeString(v)) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === "object") {
      for (const [k, item] of Object.entries(v)) {
        if (isUnsafeString(k)) return true;
        stack.push(item);
      }
    }
  }
  return false;
}

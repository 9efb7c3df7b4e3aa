/**
 * Engine messages built together with their Portuguese text, on the engine's hot path (ADR 0007).
 *
 * decide() runs once per bar in backtests (docs/BENCHMARKS.md: ~90 000 bars/s) and a decision's
 * reason nests a dozen messages; rendering each through i18next's t() (several µs a call) made
 * backtests about 7× slower. So `say` builds a message and its text in one step: nested messages
 * come with their text already made, and the engine catalogs use plain `{{name}}` placeholders only,
 * so the Portuguese text is the pt template (core/i18n/locales/pt) filled with i18next's rules for
 * such templates (values as `String(v)`, no escaping). Anything else — a formatter
 * (`{{v, number}}`), nesting (`$t(`), plural or context parameters, a missing key or parameter —
 * goes through `renderMsg`, so `said.text === renderMsg(said.msg, "pt")` always
 * (tests/unit/i18n/engine-messages.test.ts).
 */
import { CORE_RESOURCES, renderMsg } from "../i18n";
import { msg, type Msg, type MsgParam } from "../i18n/message";

/** A message and its Portuguese text. */
export interface Said {
  msg: Msg;
  /** `renderMsg(msg, "pt")`. */
  text: string;
}

/** A parameter of `say`: plain value or a message with its text. */
export type SayParam = string | number | Said;

/** A template: literal text and parameter names, alternating. */
type Template = (string | { param: string })[];

const templates = new Map<string, Template | null>();
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The pt template of a key as parts, or null when it needs i18next (missing, formatter, nesting). */
function compile(key: string): Template | null {
  const sep = key.indexOf(":");
  if (sep < 0) return null;
  let node: unknown = CORE_RESOURCES.pt?.[key.slice(0, sep)];
  for (const segment of key.slice(sep + 1).split(".")) {
    node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[segment] : undefined;
  }
  if (typeof node !== "string" || node === "" || node.includes("$t(")) return null;
  const parts: Template = [];
  let last = 0;
  for (const m of node.matchAll(PLACEHOLDER)) {
    const name = m[1]!.trim();
    if (!PLAIN_NAME.test(name)) return null;
    parts.push(node.slice(last, m.index), { param: name });
    last = m.index + m[0].length;
  }
  parts.push(node.slice(last));
  if (parts.some((p) => typeof p === "string" && p.includes("{{"))) return null;
  return parts;
}

function template(key: string): Template | null {
  let t = templates.get(key);
  if (t === undefined) {
    t = compile(key);
    templates.set(key, t);
  }
  return t;
}

/** The Portuguese text of `m`, whose parameters come with their texts in `params`. */
function fill(m: Msg, params: Record<string, SayParam> | undefined): string {
  const parts = template(m.key);
  if (!parts || (params && ("count" in params || "context" in params))) return renderMsg(m);
  let out = "";
  for (const part of parts) {
    if (typeof part === "string") {
      out += part;
      continue;
    }
    const value = params?.[part.param];
    if (value === undefined) return renderMsg(m);
    const text = typeof value === "object" ? value.text : String(value);
    // A value with "{{" would be read again by i18next's replace: let i18next decide.
    if (text.includes("{{")) return renderMsg(m);
    out += text;
  }
  return out;
}

/** A message (key "namespace:path", parameters possibly messages) with its Portuguese text. */
export function say(key: string, params?: Record<string, SayParam>): Said {
  let m: Msg;
  if (params) {
    const msgParams: Record<string, MsgParam> = {};
    for (const name in params) {
      const value = params[name]!;
      msgParams[name] = typeof value === "object" ? value.msg : value;
    }
    m = msg(key, msgParams);
  } else {
    m = msg(key);
  }
  return { msg: m, text: fill(m, params) };
}

/**
 * A list as one message, "a, b, c": engine:list.item {first, rest}, nested to the right.
 * @throws Error for an empty list.
 */
export function sayList(items: readonly Said[]): Said {
  if (items.length === 0) throw new Error("sayList: empty list");
  let out = items[items.length - 1]!;
  for (let i = items.length - 2; i >= 0; i--) out = say("engine:list.item", { first: items[i]!, rest: out });
  return out;
}

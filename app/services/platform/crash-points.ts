/**
 * Fault injection for the crash tests (tests/integration/crash-restart.test.ts, crash-random.test.ts):
 * the named places where the process may be told to kill itself (`SIGKILL`, no cleanup) and the
 * grammar of the `CRASH_AT` setting that says when. Pure (only the core PRNG): config.server.ts validates
 * CRASH_AT with `parseCrashSpec`, crash-point.server.ts acts on the parsed spec. Refused in production.
 *
 * CRASH_AT forms:
 * - `<point>[@<n>][,<point>[@<n>]…]`: die at the n-th call (default the first) of any listed point,
 *   e.g. `after-order`, `reconcile-before-commit@3,after-close`;
 * - `random:<seed>:<probability>[:<point>,<point>…]`: every call of a listed point (default: every
 *   point) dies with that probability, drawn from a PRNG seeded with `<seed>` (a failing seed replays
 *   the same draws), e.g. `random:42:0.05`.
 */
import { mulberry32 } from "../../../core/random";

/** The crash points, in the order a tick and a manual close meet them. */
export const CRASH_POINTS = [
  /** reconcile: the broker's transactions and trades were read, no database transaction begun yet. */
  "reconcile-after-read",
  /** reconcile: inside the database transaction, everything applied and the cursor moved, before COMMIT. */
  "reconcile-before-commit",
  /** reconcile: committed, the notifications not yet sent. */
  "reconcile-after-commit",
  /** tick: an AI exit (max hold / weekend flat) about to be sent to the broker. */
  "before-exit-close",
  /** tick: the broker filled the AI exit, our books not updated yet. */
  "after-exit-close",
  /** tick: decisions made, not yet stored. */
  "before-decisions",
  /** tick: decisions stored, no order intent yet. */
  "after-decisions",
  /** tick: about to insert the order intent. */
  "before-intent",
  /** tick: the order intent is stored, the order not sent. */
  "before-order",
  /** tick: the broker filled the order, our bookkeeping has not run. */
  "after-order",
  /** manual close (PUT/POST /api/trades/:id/close): about to ask the broker to close. */
  "before-close",
  /** manual close: the broker closed, the reconcile not run yet. */
  "after-close",
] as const;

export type CrashPoint = (typeof CRASH_POINTS)[number];

/** Parsed CRASH_AT (see the module doc). */
export type CrashSpec =
  | { kind: "at"; points: readonly { point: CrashPoint; nth: number }[] }
  | { kind: "random"; seed: number; probability: number; points: readonly CrashPoint[] };

const isPoint = (s: string): s is CrashPoint => (CRASH_POINTS as readonly string[]).includes(s);

/** Parses a CRASH_AT value. @throws Error with a Portuguese reason for a malformed value */
export function parseCrashSpec(value: string): CrashSpec {
  const v = value.trim();
  const points = (list: string): CrashPoint[] => {
    const names = list.split(",").map((s) => s.trim()).filter(Boolean);
    const bad = names.find((n) => !isPoint(n));
    if (bad !== undefined || names.length === 0) throw new Error(`ponto de falha desconhecido${bad ? ` '${bad}'` : ""}; use um de: ${CRASH_POINTS.join(", ")}`);
    return names as CrashPoint[];
  };
  if (v.startsWith("random:")) {
    const [, seed, probability, list] = /^random:(\d{1,15}):([0-9.]+)(?::(.+))?$/.exec(v) ?? [];
    const p = Number(probability);
    if (seed === undefined || !Number.isFinite(p) || p <= 0 || p > 1) throw new Error("use random:<semente inteira>:<probabilidade em (0, 1]>[:<pontos>]");
    return { kind: "random", seed: Number(seed), probability: p, points: list ? points(list) : [...CRASH_POINTS] };
  }
  const entries = v.split(",").map((e) => {
    const [name = "", nth = "1"] = e.trim().split("@");
    if (!/^[1-9]\d{0,5}$/.test(nth)) throw new Error(`'${e.trim()}': a contagem depois de @ é um inteiro positivo`);
    return { point: points(name)[0]!, nth: Number(nth) };
  });
  return { kind: "at", points: entries };
}

/** A small deterministic PRNG (mulberry32, core/random.ts): the same seed gives the same draws in [0, 1). */
export function seededRandom(seed: number): () => number {
  return mulberry32(seed >>> 0 || 0x9e3779b9);
}

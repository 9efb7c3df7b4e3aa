/**
 * `crashPoint(name)`: where the test harness's `CRASH_AT` (crash-points.ts; never in production)
 * says so, the process kills itself here with `SIGKILL` — no finally blocks, no COMMIT, no graceful
 * shutdown, exactly as a power cut or the OOM killer would. Before dying it writes one line to
 * stderr, synchronously: `CRASH_AT: morrendo em <point> (chamada n)`, so a test can tell which point it hit.
 * Without CRASH_AT it costs one property read.
 */
import { writeSync } from "node:fs";
import { config } from "./config.server";
import { seededRandom, type CrashPoint } from "./crash-points";

const calls = new Map<CrashPoint, number>();
let draw: (() => number) | undefined;

/** Dies here if CRASH_AT says so (see crash-points.ts for the forms); otherwise returns at once. */
export function crashPoint(point: CrashPoint): void {
  const spec = config().CRASH_AT;
  if (!spec) return;
  const n = (calls.get(point) ?? 0) + 1;
  calls.set(point, n);
  let die: boolean;
  if (spec.kind === "at") die = spec.points.some((p) => p.point === point && p.nth === n);
  else if (!spec.points.includes(point)) die = false;
  else die = (draw ??= seededRandom(spec.seed))() < spec.probability;
  if (!die) return;
  try {
    writeSync(2, `CRASH_AT: morrendo em ${point} (chamada ${n})\n`);
  } catch {
    /* stderr gone or full: die anyway */
  }
  process.kill(process.pid, "SIGKILL");
}

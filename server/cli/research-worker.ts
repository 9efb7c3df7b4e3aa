/**
 * Worker thread of `npm run research` (server/cli/research.ts): loads the study's candles once per
 * instrument set and runs the trials it is sent (core/research/trial.ts), one at a time.
 */
import { parentPort, workerData } from "node:worker_threads";
import { performance } from "node:perf_hooks";
import { family } from "../../core/research/families";
import { runTrial } from "../../core/research/trial";
import type { StudyCandles } from "../../core/research/trial";
import { loadStudyCandles } from "./research-data";

/** A trial to run: the family, its sets, the set active per year, and the random entries if any. */
export interface TrialJob {
  id: string;
  familyId: string;
  setIndices: number[];
  /** year → index into setIndices; missing years use `defaultActive`. */
  activeByYear: Record<number, number>;
  defaultActive: number;
  instruments: string[];
  firstTestYear: number;
  from: number;
  to: number;
  random?: { probabilityByYear: Record<number, number>; seed: number };
}

const dir = (workerData as { dir: string }).dir;
const cache = new Map<string, StudyCandles>();

function candles(instruments: string[]): StudyCandles {
  const key = instruments.join(",");
  let c = cache.get(key);
  if (!c) {
    c = loadStudyCandles(dir, instruments);
    cache.set(key, c);
  }
  return c;
}

parentPort!.on("message", (job: TrialJob) => {
  const f = family(job.familyId);
  const sets = job.setIndices.map((k) => f.sets[k]!);
  const active = (y: number) => job.activeByYear[y] ?? job.defaultActive;
  runTrial(
    {
      family: f,
      instruments: job.instruments,
      sets,
      activeSet: active,
      firstTestYear: job.firstTestYear,
      from: job.from,
      to: job.to,
      ...(job.random ? { random: { probability: (y: number) => job.random!.probabilityByYear[y] ?? job.random!.probabilityByYear[job.firstTestYear] ?? 0, seed: job.random.seed } } : {}),
    },
    candles(job.instruments),
    () => performance.now(),
  ).then(
    (run) => parentPort!.postMessage({ id: job.id, run }),
    (e: unknown) => parentPort!.postMessage({ id: job.id, error: e instanceof Error ? e.stack ?? e.message : String(e) }),
  );
});

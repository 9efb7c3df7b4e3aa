/**
 * The pre-registered hypothesis families and their parameter grids (docs/research/PREREGISTRATION.md,
 * "Hypotheses (families) and parameter grids"), in the order listed there: the first set of each
 * family is its fallback pick when no set has ≥ 30 train trades. F7 (today's engine) runs through the
 * engine itself (core/research/trial.ts), the others through their signal models.
 */
import type { SignalModel } from "./signal-models";
import { DonchianModel, LogitSignalModel, MaCrossModel, MeanReversionModel, SessionBreakoutModel, SqueezeModel, TsmomModel } from "./signal-models";

export type StepGranularity = "H1" | "H4" | "D1";

export interface ParamSet {
  /** Stable name, e.g. "tsmom L=60 k=3". */
  name: string;
  params: Record<string, number | string | boolean>;
}

export interface Family {
  id: string;
  /** F1…F8. */
  code: string;
  title: string;
  step: StepGranularity;
  sets: ParamSet[];
  /** Signal model of a set (absent for the engine family). `firstTestYear` is the block's (F8 refits from it). */
  model?: (set: ParamSet, firstTestYear: number) => SignalModel;
  /** The family's candidate is fixed in advance (F8: θ = 0.55), no walk-forward pick. */
  fixedCandidate?: string;
  /** Risk per trade (% of the balance) and notional cap; the engine family uses the product's sizing. */
  sizing: "research" | "product";
}

function grid(prefix: string, axes: Record<string, readonly (number | string | boolean)[]>): ParamSet[] {
  let out: Record<string, number | string | boolean>[] = [{}];
  for (const [k, values] of Object.entries(axes)) out = out.flatMap((p) => values.map((v) => ({ ...p, [k]: v })));
  return out.map((params) => ({ name: `${prefix} ${Object.entries(params).map(([k, v]) => `${k}=${String(v)}`).join(" ")}`, params }));
}

const n = (v: unknown) => Number(v);

export const FAMILIES: Family[] = [
  {
    id: "tsmom", code: "F1", title: "time-series momentum", step: "D1", sizing: "research",
    sets: grid("tsmom", { L: [20, 60, 120, 250], k: [2, 3] }),
    model: (s) => new TsmomModel(n(s.params.L), n(s.params.k)),
  },
  {
    id: "macross", code: "F2", title: "moving-average trend", step: "D1", sizing: "research",
    sets: grid("macross", { fast: [20, 50], k: [2, 3] }).map((s) => ({ ...s, name: s.name.replace(/fast=(\d+)/, (_, f) => `fast=${f} slow=${f === "20" ? 100 : 200}`), params: { ...s.params, slow: s.params.fast === 20 ? 100 : 200 } })),
    model: (s) => new MaCrossModel(n(s.params.fast), n(s.params.slow), n(s.params.k)),
  },
  {
    id: "donchian", code: "F3", title: "channel breakout", step: "D1", sizing: "research",
    sets: grid("donchian", { N: [20, 55], k: [2, 3] }),
    model: (s) => new DonchianModel(n(s.params.N), n(s.params.k)),
  },
  {
    id: "meanrev", code: "F4", title: "mean reversion with volatility bands", step: "H4", sizing: "research",
    sets: grid("meanrev", { z: [2.0, 2.5], adxMax: [20, 25] }),
    model: (s) => new MeanReversionModel(n(s.params.z), n(s.params.adxMax)),
  },
  {
    id: "session", code: "F5", title: "London-open breakout of the Asian range", step: "H1", sizing: "research",
    sets: grid("session", { m: [1, 2], tueThu: [false, true] }),
    model: (s) => new SessionBreakoutModel(n(s.params.m), s.params.tueThu === true),
  },
  {
    id: "squeeze", code: "F6", title: "volatility breakout after compression", step: "H4", sizing: "research",
    sets: grid("squeeze", { q: [0.6, 0.8], N: [10, 20] }),
    model: (s) => new SqueezeModel(n(s.params.q), n(s.params.N)),
  },
  {
    id: "engine", code: "F7", title: "today's engine on H1", step: "H1", sizing: "product",
    sets: [
      { name: "engine fresh=no sl=1 (today's default)", params: { fresh: false, slRatio: 1 } },
      { name: "engine fresh=yes sl=2", params: { fresh: true, slRatio: 2 } },
      { name: "engine fresh=yes sl=3", params: { fresh: true, slRatio: 3 } },
    ],
  },
  {
    id: "logit", code: "F8", title: "logistic regression", step: "H1", sizing: "research",
    sets: grid("logit", { theta: [0.55, 0.6] }),
    fixedCandidate: "logit theta=0.55",
    model: (s, firstTestYear) => new LogitSignalModel(n(s.params.theta), firstTestYear),
  },
];

/** Research sizing (PREREGISTRATION): 0.5 % of the balance at the stop, notional ≤ 10 × the balance. */
export const RESEARCH_RISK_PCT = 0.5;
export const RESEARCH_MAX_LEVERAGE = 10;

/** The family of an id. @throws Error for an unknown id */
export function family(id: string): Family {
  const f = FAMILIES.find((x) => x.id === id);
  if (!f) throw new Error(`Família desconhecida: ${id}`);
  return f;
}

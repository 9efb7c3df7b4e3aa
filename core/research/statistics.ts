/**
 * Statistics of the long-history study (docs/research/PREREGISTRATION.md, "Statistics reported for every
 * trial and every family"): Sharpe ratio, probabilistic and deflated Sharpe ratio, probability of backtest
 * overfitting by combinatorially symmetric cross-validation, percentile among random entries and type-7
 * quantiles. Pure functions on plain numbers: these are statistics of returns, not money (money stays in
 * decimal.js elsewhere).
 *
 * Conventions used throughout (the papers' own):
 * - Sharpe ratios are **per period** and **not annualised** (a daily series gives a daily SR; multiply by
 *   √periods-per-year only for display, see annualisedSharpe). No risk-free rate is subtracted: the inputs
 *   are already returns of a strategy against flat.
 * - Skewness γ₃ and kurtosis γ₄ are population moment ratios (m₃/m₂^{3/2}, m₄/m₂²), and γ₄ is the
 *   **non-excess** kurtosis (3 for a normal distribution), as in Bailey & López de Prado's formulas.
 * - Normal CDF Φ and its inverse come from jstat (accurate to about 1e-9), never from a table.
 *
 * Sources:
 * - Bailey, D. H. & López de Prado, M. (2012), "The Sharpe Ratio Efficient Frontier", Journal of Risk 15(2):
 *   the probabilistic Sharpe ratio (PSR).
 * - Bailey, D. H. & López de Prado, M. (2014), "The Deflated Sharpe Ratio: Correcting for Selection Bias,
 *   Backtest Overfitting and Non-Normality", Journal of Portfolio Management 40(5): 94–107 (DSR, SR₀).
 * - Bailey, D. H., Borwein, J., López de Prado, M. & Zhu, Q. J. (2017), "The Probability of Backtest
 *   Overfitting", Journal of Computational Finance 20(4): 39–69 (PBO by CSCV; working paper 2015).
 * - Hyndman, R. J. & Fan, Y. (1996), "Sample Quantiles in Statistical Packages", The American Statistician
 *   50(4): type 7 (R's and NumPy's default).
 */
import jStat from "jstat";

/** Euler–Mascheroni constant γ (used by the expected maximum of N normals, Bailey & López de Prado 2014). */
export const EULER_MASCHERONI = 0.5772156649015329;

function assertFinite(values: readonly number[], what: string): void {
  for (const v of values) if (!Number.isFinite(v)) throw new RangeError(`${what}: every value must be a finite number (got ${v})`);
}

function mean(values: readonly number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/** Sample variance (÷ n − 1); callers ensure n ≥ 2. */
function sampleVariance(values: readonly number[]): number {
  const m = mean(values);
  let ss = 0;
  for (const v of values) ss += (v - m) ** 2;
  return ss / (values.length - 1);
}

/**
 * Sample standard deviation (÷ n − 1), 0 with fewer than 2 values or when it is only rounding noise
 * (≤ 1e-12 of the largest magnitude: a constant series like [0.1, 0.1, 0.1] has a float mean that is off
 * by an ulp, which must not yield a Sharpe ratio of 10¹⁵).
 */
function sampleSd(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const sd = Math.sqrt(sampleVariance(values));
  let scale = 0;
  for (const v of values) scale = Math.max(scale, Math.abs(v));
  return sd > 1e-12 * scale ? sd : 0;
}

/** Standard normal CDF Φ(x) (jstat). */
export function normalCdf(x: number): number {
  return jStat.normal.cdf(x, 0, 1);
}

/** Standard normal quantile Φ⁻¹(p) (jstat); p must be in (0, 1), else RangeError. */
export function normalInv(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalInv: p must be in (0, 1) (got ${p})`);
  return jStat.normal.inv(p, 0, 1);
}

/**
 * Per-period Sharpe ratio: mean / sample standard deviation (÷ n − 1) of the returns, not annualised, no
 * risk-free rate. null when there are fewer than 2 values or the standard deviation is 0 (undefined ratio).
 * Throws RangeError on a non-finite value.
 */
export function sharpe(returns: readonly number[]): number | null {
  assertFinite(returns, "sharpe");
  const sd = sampleSd(returns);
  if (!(sd > 0)) return null;
  return mean(returns) / sd;
}

/**
 * Annualised Sharpe ratio: sharpe(returns) × √periodsPerYear (e.g. 252 for daily trading-day returns, 12 for
 * monthly) — the usual i.i.d. scaling, for display only; the PSR/DSR below take the per-period ratio.
 * null where sharpe is null; RangeError when periodsPerYear is not a positive finite number.
 */
export function annualisedSharpe(returns: readonly number[], periodsPerYear: number): number | null {
  if (!(periodsPerYear > 0 && Number.isFinite(periodsPerYear))) {
    throw new RangeError(`annualisedSharpe: periodsPerYear must be positive (got ${periodsPerYear})`);
  }
  const sr = sharpe(returns);
  return sr === null ? null : sr * Math.sqrt(periodsPerYear);
}

/**
 * Skewness γ₃ = m₃ / m₂^{3/2} (population central moments, jstat's `skewness`). null with fewer than 2 values
 * or zero dispersion. 0 for a symmetric sample.
 */
export function skewness(values: readonly number[]): number | null {
  assertFinite(values, "skewness");
  if (!(sampleSd(values) > 0)) return null;
  return jStat.skewness(values);
}

/**
 * Kurtosis γ₄ = m₄ / m₂² (population central moments), **non-excess**: 3 for a normal distribution
 * (jstat's `kurtosis` is excess, so 3 is added back). null with fewer than 2 values or zero dispersion.
 */
export function kurtosis(values: readonly number[]): number | null {
  assertFinite(values, "kurtosis");
  if (!(sampleSd(values) > 0)) return null;
  return jStat.kurtosis(values) + 3;
}

/**
 * Probabilistic Sharpe ratio (Bailey & López de Prado 2012, "The Sharpe Ratio Efficient Frontier"): the
 * probability that the true Sharpe ratio exceeds the benchmark `sr0`, given an estimate `sr` from `T`
 * observations whose returns have skewness `skew` (γ₃) and non-excess kurtosis `kurt` (γ₄):
 *
 *   PSR = Φ( (SR − SR₀)·√(T − 1) / √(1 − γ₃·SR + (γ₄ − 1)/4·SR²) )
 *
 * `sr` and `sr0` are per-period (not annualised) and must share the returns' period. Normal returns: skew 0,
 * kurt 3. Returns a probability in [0, 1]; 0.5 when sr = sr0. RangeError when T < 2, an input is not finite,
 * or the variance term is not positive (inconsistent moments: sample moments always satisfy γ₄ ≥ 1 + γ₃²,
 * which keeps it positive).
 */
export function probabilisticSharpe(sr: number, sr0: number, T: number, skew: number, kurt: number): number {
  assertFinite([sr, sr0, T, skew, kurt], "probabilisticSharpe");
  if (T < 2) throw new RangeError(`probabilisticSharpe: T must be at least 2 observations (got ${T})`);
  const v = 1 - skew * sr + ((kurt - 1) / 4) * sr * sr;
  if (!(v > 0)) throw new RangeError(`probabilisticSharpe: 1 − γ₃·SR + (γ₄ − 1)/4·SR² must be positive (got ${v}); check skew/kurtosis`);
  return normalCdf(((sr - sr0) * Math.sqrt(T - 1)) / Math.sqrt(v));
}

/**
 * Expected maximum Sharpe ratio among `nTrials` independent trials whose true Sharpe is 0 and whose
 * estimated Sharpe ratios have variance `variance` (Bailey & López de Prado 2014, eq. for SR₀, from the
 * extreme-value approximation of the maximum of N standard normals):
 *
 *   SR₀ = √V · ( (1 − γ)·Φ⁻¹(1 − 1/N) + γ·Φ⁻¹(1 − 1/(N·e)) ),  γ = Euler–Mascheroni.
 *
 * Same units as the Sharpe ratios whose variance V is (per-period for the DSR). For V = 1, N = 1000 it is
 * ≈ 3.255 (the exact mean of the maximum of 1000 standard normals is ≈ 3.241). N = 1 gives 0 (no selection:
 * the formula's Φ⁻¹(0) is −∞). RangeError when V < 0 or N is not an integer ≥ 1.
 */
export function expectedMaxSharpe(variance: number, nTrials: number): number {
  if (!(variance >= 0 && Number.isFinite(variance))) throw new RangeError(`expectedMaxSharpe: variance must be ≥ 0 (got ${variance})`);
  if (!(Number.isInteger(nTrials) && nTrials >= 1)) throw new RangeError(`expectedMaxSharpe: nTrials must be an integer ≥ 1 (got ${nTrials})`);
  if (nTrials === 1) return 0;
  const g = EULER_MASCHERONI;
  return Math.sqrt(variance) * ((1 - g) * normalInv(1 - 1 / nTrials) + g * normalInv(1 - 1 / (nTrials * Math.E)));
}

/** Input of deflatedSharpe: the selected strategy's returns, the trials' Sharpe dispersion and the trial count. */
export type DeflatedSharpeInput = {
  /** Per-period returns of the selected strategy (e.g. daily out-of-sample returns). */
  returns: readonly number[];
  /** Number of trials N run in the whole study (all that could have been selected), integer ≥ 1. */
  nTrials: number;
} & (
  | {
      /** Per-period Sharpe ratios of the trials (same period as `returns`); V = their sample variance (÷ n − 1). */
      trialSharpes: readonly number[];
      trialSharpeVariance?: undefined;
    }
  | {
      /** V given directly: variance of the trials' per-period Sharpe ratios. */
      trialSharpeVariance: number;
      trialSharpes?: undefined;
    }
);

/** Result of deflatedSharpe: the DSR probability and every figure that went into it. */
export interface DeflatedSharpe {
  /** Deflated Sharpe ratio: PSR of `sr` against `sr0`, a probability in [0, 1] (the study's bar: ≥ 0.95). */
  dsr: number;
  /** Per-period Sharpe ratio of the returns (not annualised). */
  sr: number;
  /** Per-period benchmark: expected maximum Sharpe of `nTrials` zero-skill trials (expectedMaxSharpe). */
  sr0: number;
  /** Number of returns. */
  T: number;
  /** Skewness γ₃ of the returns. */
  skew: number;
  /** Non-excess kurtosis γ₄ of the returns (3 = normal). */
  kurtosis: number;
  /** V: variance of the trials' per-period Sharpe ratios. */
  variance: number;
  /** N: number of trials. */
  nTrials: number;
}

/**
 * Deflated Sharpe ratio (Bailey & López de Prado 2014, "The Deflated Sharpe Ratio: Correcting for Selection
 * Bias, Backtest Overfitting and Non-Normality", Journal of Portfolio Management 40(5)): the probabilistic
 * Sharpe ratio of the selected strategy's returns against SR₀ = expectedMaxSharpe(V, N), so that the bar
 * rises with the number of trials N and their dispersion V, and falls for negative skew / fat tails.
 *
 * Conventions: per-period SR (sample sd), not annualised — V must be the variance of per-period Sharpe
 * ratios of the same period (divide an annualised variance by periods-per-year); skewness and non-excess
 * kurtosis of the returns (population moments). The paper's example (annualised SR 2.5 over 1250 daily
 * returns, N = 100, annualised V = 0.5, γ₃ = −3, γ₄ = 10, 250 days a year) gives SR₀ ≈ 0.1132 per day
 * (≈ 1.79 annualised) and DSR ≈ 0.9004.
 *
 * null when the returns' Sharpe is undefined (fewer than 2 values or zero dispersion, e.g. a family that
 * never traded). RangeError on bad N or V, or with fewer than 2 trial Sharpe ratios to take a variance of.
 */
export function deflatedSharpe(input: DeflatedSharpeInput): DeflatedSharpe | null {
  const { returns, nTrials } = input;
  let variance: number;
  if (input.trialSharpes !== undefined) {
    assertFinite(input.trialSharpes, "deflatedSharpe trialSharpes");
    if (input.trialSharpes.length < 2) throw new RangeError("deflatedSharpe: need at least 2 trial Sharpe ratios for their variance");
    variance = sampleVariance(input.trialSharpes);
  } else {
    variance = input.trialSharpeVariance;
  }
  const sr = sharpe(returns);
  if (sr === null) return null;
  const skew = skewness(returns) ?? 0;
  const kurt = kurtosis(returns) ?? 3;
  const sr0 = expectedMaxSharpe(variance, nTrials);
  const T = returns.length;
  return { dsr: probabilisticSharpe(sr, sr0, T, skew, kurt), sr, sr0, T, skew, kurtosis: kurt, variance, nTrials };
}

/**
 * Percentile (0–100) of `value` among `sample`: the share of the sample strictly below it, ties counted
 * half (the pre-registration's rule for random entries), not rounded. null for an empty sample.
 */
export function percentileAmong(value: number, sample: readonly number[]): number | null {
  assertFinite([value, ...sample], "percentileAmong");
  if (sample.length === 0) return null;
  let below = 0;
  let equal = 0;
  for (const x of sample) {
    if (x < value) below++;
    else if (x === value) equal++;
  }
  return ((below + equal / 2) / sample.length) * 100;
}

/**
 * Sample quantile of type 7 (Hyndman & Fan 1996; R's and NumPy's default): with the sample sorted
 * x₁ ≤ … ≤ xₙ and h = (n − 1)·p, Q = x⌊h⌋₊₁ + (h − ⌊h⌋)(x⌊h⌋₊₂ − x⌊h⌋₊₁). `p` in [0, 1] (0.95 = the 95th
 * percentile). null for an empty sample; RangeError when p is outside [0, 1].
 */
export function quantile(sample: readonly number[], p: number): number | null {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile: p must be in [0, 1] (got ${p})`);
  assertFinite(sample, "quantile");
  if (sample.length === 0) return null;
  const x = [...sample].sort((a, b) => a - b);
  const h = (x.length - 1) * p;
  const lo = Math.floor(h);
  const a = x[lo] as number;
  const b = x[Math.min(lo + 1, x.length - 1)] as number;
  return a + (h - lo) * (b - a);
}

/** Options of pbo. */
export interface PboOptions {
  /** S: number of contiguous blocks the rows are split into; even, ≥ 2 (the study: 12). */
  blocks: number;
  /**
   * Performance of one trial on a subset of rows (its returns in time order), higher is better. Default:
   * per-period Sharpe ratio (sharpe), with a zero-dispersion series scored +∞ / −∞ / 0 by the sign of its mean.
   */
  metric?: (returns: readonly number[]) => number;
}

/** Result of pbo. */
export interface PboResult {
  /** Probability of backtest overfitting: share of the combinations whose logit λ ≤ 0, in [0, 1]. */
  pbo: number;
  /** Number of combinations evaluated: C(S, S/2) (924 for S = 12). */
  combinations: number;
  /** λ = ln(ω̄ / (1 − ω̄)) of each combination, in the order the combinations were enumerated (lexicographic). */
  logits: number[];
  /** Metric of the in-sample best trial, in sample, per combination. */
  isPerformance: number[];
  /** Metric of that same trial out of sample, per combination. */
  oosPerformance: number[];
  /**
   * Mean performance degradation: mean of (in-sample − out-of-sample) metric of the selected trial over the
   * combinations where both are finite (NaN if none are).
   */
  meanDegradation: number;
  /**
   * Slope of the least-squares line of out-of-sample on in-sample performance of the selected trial (the
   * paper's "performance degradation" regression; negative = the better it looked, the worse it did).
   * null when the in-sample figures do not vary.
   */
  degradationSlope: number | null;
  /** Share of combinations where the selected trial's out-of-sample metric is below 0 (the paper's "probability of loss"). */
  probOosLoss: number;
  /** S, the number of blocks. */
  blocks: number;
  /** Rows per block after trimming. */
  blockSize: number;
  /** Rows dropped from the start (the oldest) so that the rows divide into S equal blocks: T mod S. */
  droppedRows: number;
  /** N, the number of trials (columns). */
  trials: number;
}

/** Default PBO metric: per-period Sharpe; a constant series scores by the sign of its mean (±∞, or 0 when flat). */
function sharpeMetric(returns: readonly number[]): number {
  if (returns.length === 0) return 0;
  const m = mean(returns);
  const sd = sampleSd(returns);
  if (sd > 0) return m / sd;
  return m > 0 ? Infinity : m < 0 ? -Infinity : 0;
}

/** All k-subsets of {0, …, n − 1}, lexicographic. */
function combinations(n: number, k: number): number[][] {
  const out: number[][] = [];
  const pick: number[] = [];
  const rec = (start: number): void => {
    if (pick.length === k) {
      out.push([...pick]);
      return;
    }
    for (let i = start; i <= n - (k - pick.length); i++) {
      pick.push(i);
      rec(i + 1);
      pick.pop();
    }
  };
  rec(0);
  return out;
}

/**
 * Probability of backtest overfitting by combinatorially symmetric cross-validation (CSCV; Bailey, Borwein,
 * López de Prado & Zhu 2015/2017, "The Probability of Backtest Overfitting", Journal of Computational
 * Finance 20(4)).
 *
 * `matrix` is T rows (periods, oldest first) × N columns (trials), each cell a trial's return in that
 * period. The rows are split into S contiguous blocks of equal size; when T is not a multiple of S the
 * oldest T mod S rows are dropped (reported as `droppedRows`). For every one of the C(S, S/2) ways to pick
 * S/2 blocks as in-sample (the rest, in time order, out-of-sample):
 * 1. score every trial in sample by `metric` (default Sharpe) and select the best n* (first on ties);
 * 2. take n*'s rank among the N trials out of sample (1 = worst, N = best; ties get their average rank) and
 *    its relative rank ω̄ = rank / (N + 1);
 * 3. λ = ln(ω̄ / (1 − ω̄)); λ ≤ 0 means the in-sample winner did no better than the median out of sample.
 * PBO = share of combinations with λ ≤ 0. About 0.5 (or above) when the trials have no real differences
 * (selection picks noise), near 0 when the in-sample winner keeps winning.
 *
 * RangeError when S is not an even integer ≥ 2, N < 2, rows have different lengths or non-finite values,
 * fewer than S rows remain, or the metric returns NaN. Cost: C(S, S/2) × N metric evaluations × 2.
 */
export function pbo(matrix: readonly (readonly number[])[], options: PboOptions): PboResult {
  const S = options.blocks;
  const metric = options.metric ?? sharpeMetric;
  if (!(Number.isInteger(S) && S >= 2 && S % 2 === 0)) throw new RangeError(`pbo: blocks must be an even integer ≥ 2 (got ${S})`);
  const T = matrix.length;
  const N = matrix[0]?.length ?? 0;
  if (N < 2) throw new RangeError(`pbo: need at least 2 trials (columns) (got ${N})`);
  for (const row of matrix) {
    if (row.length !== N) throw new RangeError(`pbo: every row must have ${N} columns (got ${row.length})`);
    assertFinite(row, "pbo");
  }
  const blockSize = Math.floor(T / S);
  if (blockSize < 1) throw new RangeError(`pbo: need at least ${S} rows for ${S} blocks (got ${T})`);
  const droppedRows = T - blockSize * S;
  const rows = matrix.slice(droppedRows);

  // columns[n] = trial n's returns in time order (after trimming).
  const columns: number[][] = Array.from({ length: N }, (_, n) => rows.map((r) => r[n] as number));
  /** Row indices (time order) of the chosen blocks. */
  const rowsOf = (chosen: readonly number[]): number[] => {
    const idx: number[] = [];
    for (const b of chosen) for (let i = b * blockSize; i < (b + 1) * blockSize; i++) idx.push(i);
    return idx;
  };
  const take = (n: number, idx: readonly number[]): number[] => {
    const col = columns[n] as number[];
    const out = new Array<number>(idx.length);
    for (let i = 0; i < idx.length; i++) out[i] = col[idx[i] as number] as number;
    return out;
  };
  const score = (values: number[]): number => {
    const v = metric(values);
    if (Number.isNaN(v)) throw new RangeError("pbo: the metric returned NaN");
    return v;
  };

  const logits: number[] = [];
  const isPerformance: number[] = [];
  const oosPerformance: number[] = [];
  const all = Array.from({ length: S }, (_, i) => i);
  const trials = Array.from({ length: N }, (_, n) => n);
  for (const inSample of combinations(S, S / 2)) {
    const isRows = rowsOf(inSample);
    const oosRows = rowsOf(all.filter((b) => !inSample.includes(b)));
    const r = trials.map((n) => score(take(n, isRows)));
    const rBar = trials.map((n) => score(take(n, oosRows)));
    let best = 0;
    for (let n = 1; n < N; n++) if ((r[n] as number) > (r[best] as number)) best = n;
    const v = rBar[best] as number;
    let less = 0;
    let equal = 0;
    for (const x of rBar) {
      if (x < v) less++;
      else if (x === v) equal++;
    }
    const rank = less + (equal + 1) / 2;
    const omega = rank / (N + 1);
    logits.push(Math.log(omega / (1 - omega)));
    isPerformance.push(r[best] as number);
    oosPerformance.push(v);
  }

  const C = logits.length;
  const finitePairs = isPerformance.map((x, i) => [x, oosPerformance[i] as number] as const).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const meanDegradation = finitePairs.length === 0 ? NaN : mean(finitePairs.map(([x, y]) => x - y));
  let degradationSlope: number | null = null;
  if (finitePairs.length >= 2) {
    const mx = mean(finitePairs.map(([x]) => x));
    const my = mean(finitePairs.map(([, y]) => y));
    let sxx = 0;
    let sxy = 0;
    for (const [x, y] of finitePairs) {
      sxx += (x - mx) ** 2;
      sxy += (x - mx) * (y - my);
    }
    degradationSlope = sxx > 0 ? sxy / sxx : null;
  }
  return {
    pbo: logits.filter((l) => l <= 0).length / C,
    combinations: C,
    logits,
    isPerformance,
    oosPerformance,
    meanDegradation,
    degradationSlope,
    probOosLoss: oosPerformance.filter((y) => y < 0).length / C,
    blocks: S,
    blockSize,
    droppedRows,
    trials: N,
  };
}

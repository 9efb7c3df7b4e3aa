/**
 * The study's statistics (core/research/statistics.ts) against independent values: hand arithmetic,
 * textbook constants, the Deflated Sharpe paper's worked example, and Monte Carlo simulations with the
 * seeded PRNG (core/random.ts) — never against numbers produced by the module itself.
 */
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../core/random";
import {
  annualisedSharpe,
  deflatedSharpe,
  expectedMaxSharpe,
  kurtosis,
  normalCdf,
  normalInv,
  pbo,
  percentileAmong,
  probabilisticSharpe,
  quantile,
  sharpe,
  skewness,
} from "../../core/research/statistics";

/** Standard normal draws by Box–Muller from mulberry32 (independent of jstat). */
function normals(seed: number): () => number {
  const u = mulberry32(seed);
  return () => {
    const u1 = 1 - u(); // (0, 1]
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u());
  };
}

/** Φ by the Taylor series of erf (independent of jstat; exact to ~1e-12 for |x| ≤ 4). */
function phiSeries(x: number): number {
  const z = x / Math.SQRT2;
  let term = z;
  let sum = z;
  for (let n = 1; n < 200; n++) {
    term *= (-z * z) / n;
    sum += term / (2 * n + 1);
  }
  return 0.5 * (1 + (2 / Math.sqrt(Math.PI)) * sum);
}

describe("Sharpe ratio (per period, sample sd)", () => {
  it("is mean / sample standard deviation, annualised by √periods", () => {
    // [1, 2, 3, 4]: mean 2.5, sample variance (2.25 + 0.25 + 0.25 + 2.25) / 3 = 5/3.
    const sr = 2.5 / Math.sqrt(5 / 3);
    expect(sharpe([1, 2, 3, 4])).toBeCloseTo(sr, 12);
    expect(annualisedSharpe([1, 2, 3, 4], 252)).toBeCloseTo(sr * Math.sqrt(252), 10);
    expect(sharpe([0.01, -0.02, 0.03])).toBeCloseTo(0.02 / 3 / Math.sqrt(((0.01 - 0.02 / 3) ** 2 + (-0.02 - 0.02 / 3) ** 2 + (0.03 - 0.02 / 3) ** 2) / 2), 12);
  });

  it("is undefined (null) with fewer than 2 returns or no dispersion, and rejects non-finite input", () => {
    expect(sharpe([])).toBeNull();
    expect(sharpe([0.5])).toBeNull();
    expect(sharpe([0, 0, 0])).toBeNull();
    expect(annualisedSharpe([0.1, 0.1], 252)).toBeNull();
    expect(() => sharpe([1, Number.NaN])).toThrow(RangeError);
    expect(() => annualisedSharpe([1, 2], 0)).toThrow(RangeError);
  });
});

describe("skewness and kurtosis (population moments, kurtosis non-excess)", () => {
  it("match the moment ratios computed by hand", () => {
    const x = [1, 2, 3, 4, 10];
    const m = 4;
    const m2 = x.reduce((s, v) => s + (v - m) ** 2, 0) / 5; // (9 + 4 + 1 + 0 + 36) / 5 = 10
    const m3 = x.reduce((s, v) => s + (v - m) ** 3, 0) / 5; // (−27 − 8 − 1 + 0 + 216) / 5 = 36
    const m4 = x.reduce((s, v) => s + (v - m) ** 4, 0) / 5; // (81 + 16 + 1 + 0 + 1296) / 5 = 278.8
    expect(m2).toBe(10);
    expect(skewness(x)).toBeCloseTo(m3 / m2 ** 1.5, 12); // 36 / 10^1.5 ≈ 1.13842
    expect(kurtosis(x)).toBeCloseTo(m4 / m2 ** 2, 12); // 2.788 (scipy kurtosis(fisher=False) agrees)
    expect(skewness([1, 2, 3])).toBeCloseTo(0, 12);
    expect(skewness([2, 2])).toBeNull();
    expect(kurtosis([7])).toBeNull();
  });

  it("are ≈ 0 and ≈ 3 on a large normal sample", () => {
    const z = normals(11);
    const xs = Array.from({ length: 50_000 }, z);
    expect(skewness(xs)).toBeCloseTo(0, 1); // sd of the estimate √(6/n) ≈ 0.011
    expect(Math.abs((kurtosis(xs) as number) - 3)).toBeLessThan(0.1); // sd √(24/n) ≈ 0.022
  });
});

describe("normal CDF and quantile", () => {
  it("match textbook constants and an independent erf series", () => {
    expect(normalInv(0.975)).toBeCloseTo(1.959963984540054, 8);
    expect(normalInv(0.999)).toBeCloseTo(3.090232306167813, 8);
    expect(normalInv(0.5)).toBeCloseTo(0, 12);
    for (const x of [-3.2, -1, -0.3, 0, 0.7, 1.6448536, 2.5]) expect(normalCdf(x)).toBeCloseTo(phiSeries(x), 9);
    expect(() => normalInv(1)).toThrow(RangeError);
  });
});

describe("probabilistic Sharpe ratio (Bailey & López de Prado 2012)", () => {
  it("is 0.5 when the estimate equals the benchmark, whatever the moments and T", () => {
    for (const [sr, t, g3, g4] of [
      [0.1, 250, 0, 3],
      [0.3, 40, -2, 9],
      [-0.05, 1000, 0.5, 6],
    ] as const) {
      expect(probabilisticSharpe(sr, sr, t, g3, g4)).toBeCloseTo(0.5, 12);
    }
  });

  it("matches the formula computed by hand for normal returns (Lo's standard error √((1 + SR²/2)/(T − 1)))", () => {
    // SR = 0.1, SR₀ = 0, T = 101: z = 0.1·√100 / √(1 + 0.01/2) = 1 / √1.005.
    expect(probabilisticSharpe(0.1, 0, 101, 0, 3)).toBeCloseTo(phiSeries(1 / Math.sqrt(1.005)), 9); // ≈ 0.84074
    // Negative skew and fat tails widen the denominator, so the same estimate is less convincing.
    expect(probabilisticSharpe(0.1, 0, 101, -3, 10)).toBeLessThan(probabilisticSharpe(0.1, 0, 101, 0, 3));
    expect(() => probabilisticSharpe(0.1, 0, 1, 0, 3)).toThrow(RangeError);
  });

  it("is calibrated: with the true Sharpe as benchmark, PSR > 0.95 about 5 % of the time, skewed returns included", () => {
    // Returns r = μ − (E − 1), E ~ Exp(1): mean μ, sd 1 → true per-period SR = μ, skewness −2, kurtosis 9.
    const mu = 0.3;
    const T = 1000;
    const runs = 1000;
    const u = mulberry32(2024);
    let corrected = 0;
    let normalAssumed = 0;
    for (let k = 0; k < runs; k++) {
      const r = Array.from({ length: T }, () => mu + 1 + Math.log(1 - u()));
      const sr = sharpe(r) as number;
      if (probabilisticSharpe(sr, mu, T, skewness(r) as number, kurtosis(r) as number) > 0.95) corrected++;
      if (probabilisticSharpe(sr, mu, T, 0, 3) > 0.95) normalAssumed++;
    }
    // Nominal 5 %; binomial sd over 1000 runs ≈ 0.7 %. Ignoring the skew roughly doubles the false positives.
    expect(corrected / runs).toBeGreaterThan(0.03);
    expect(corrected / runs).toBeLessThan(0.08);
    expect(normalAssumed / runs).toBeGreaterThan(corrected / runs + 0.03);
  });
});

describe("expected maximum Sharpe of N zero-skill trials", () => {
  it("is ≈ 3.26 for V = 1, N = 1000, close to the simulated mean maximum of 1000 standard normals", () => {
    const sr0 = expectedMaxSharpe(1, 1000);
    // Φ⁻¹(0.999) = 3.090232, Φ⁻¹(1 − 1/(1000e)) = 3.375895: 0.4227843·3.090232 + 0.5772157·3.375895 = 3.25512.
    expect(sr0).toBeCloseTo(3.25512, 4);
    const z = normals(7);
    const reps = 2000;
    let sum = 0;
    for (let k = 0; k < reps; k++) {
      let max = -Infinity;
      for (let i = 0; i < 1000; i++) max = Math.max(max, z());
      sum += max;
    }
    // The simulated mean (exact value ≈ 3.2414; standard error ≈ 0.01) sits within 0.05 of the approximation.
    expect(Math.abs(sum / reps - sr0)).toBeLessThan(0.05);
  });

  it("scales with √V, grows with N, and is 0 with a single trial", () => {
    expect(expectedMaxSharpe(4, 100)).toBeCloseTo(2 * expectedMaxSharpe(1, 100), 12);
    expect(expectedMaxSharpe(1, 10)).toBeLessThan(expectedMaxSharpe(1, 100));
    expect(expectedMaxSharpe(1, 1)).toBe(0);
    expect(expectedMaxSharpe(0, 50)).toBe(0);
    expect(() => expectedMaxSharpe(1, 0)).toThrow(RangeError);
    expect(() => expectedMaxSharpe(-1, 10)).toThrow(RangeError);
  });
});

describe("deflated Sharpe ratio (Bailey & López de Prado 2014)", () => {
  it("reproduces the paper's worked example: SR₀ ≈ 0.1132 per day and DSR ≈ 0.9004", () => {
    // Annualised SR 2.5 over T = 1250 daily returns (250 a year), N = 100 trials, annualised V = 0.5,
    // skewness −3, kurtosis 10. Per day: SR = 2.5/√250 = 0.158114, V = 0.5/250 = 0.002.
    // SR₀ = √0.002 · (0.4227843·Φ⁻¹(0.99) + 0.5772157·Φ⁻¹(1 − 1/(100e)))
    //     = 0.0447214 · (0.4227843·2.3263479 + 0.5772157·2.6802104) = 0.0447214 · 2.530559 = 0.113172.
    const sr0 = expectedMaxSharpe(0.5 / 250, 100);
    expect(sr0).toBeCloseTo(0.113172, 5);
    expect(sr0 * Math.sqrt(250)).toBeCloseTo(1.7894, 3);
    // z = (0.158114 − 0.113172)·√1249 / √(1 + 3·0.158114 + 9/4·0.025) = 1.588324 / 1.237171 = 1.283834.
    const sr = 2.5 / Math.sqrt(250);
    const z = ((sr - 0.113172) * Math.sqrt(1249)) / Math.sqrt(1 + 3 * sr + (9 / 4) * sr * sr);
    expect(z).toBeCloseTo(1.2838, 3);
    const dsr = probabilisticSharpe(sr, sr0, 1250, -3, 10);
    expect(dsr).toBeCloseTo(phiSeries(z), 4);
    expect(dsr).toBeCloseTo(0.9004, 4);
  });

  it("deflates a real series by the trials: reports its inputs, and the bar rises with N", () => {
    const z = normals(99);
    const returns = Array.from({ length: 1250 }, () => 0.0005 + 0.005 * z());
    const trialSharpes = Array.from({ length: 33 }, () => 0.03 * z());
    const v = trialSharpes.reduce((s, x) => s + (x - trialSharpes.reduce((a, b) => a + b, 0) / 33) ** 2, 0) / 32;
    const few = deflatedSharpe({ returns, trialSharpes, nTrials: 10 });
    const many = deflatedSharpe({ returns, trialSharpes, nTrials: 1000 });
    expect(few).not.toBeNull();
    expect(many).not.toBeNull();
    if (few === null || many === null) return;
    expect(few.T).toBe(1250);
    expect(few.nTrials).toBe(10);
    expect(few.variance).toBeCloseTo(v, 14);
    expect(few.sr).toBeCloseTo(sharpe(returns) as number, 14);
    expect(few.skew).toBeCloseTo(skewness(returns) as number, 14);
    expect(few.kurtosis).toBeCloseTo(kurtosis(returns) as number, 14);
    expect(few.sr0).toBeCloseTo(expectedMaxSharpe(v, 10), 14);
    expect(few.dsr).toBeCloseTo(probabilisticSharpe(few.sr, few.sr0, 1250, few.skew, few.kurtosis), 14);
    expect(many.sr0).toBeGreaterThan(few.sr0);
    expect(many.dsr).toBeLessThan(few.dsr);
    // V given directly gives the same answer as the trials' Sharpe ratios.
    expect(deflatedSharpe({ returns, trialSharpeVariance: v, nTrials: 10 })?.dsr).toBeCloseTo(few.dsr, 12);
  });

  it("is null for a series that never moved, and rejects too few trial Sharpe ratios", () => {
    expect(deflatedSharpe({ returns: [0, 0, 0, 0], trialSharpeVariance: 0.01, nTrials: 66 })).toBeNull();
    expect(() => deflatedSharpe({ returns: [0.1, 0.2], trialSharpes: [0.1], nTrials: 66 })).toThrow(RangeError);
  });

  it("of the best of many zero-skill trials stays low (the selection bias it corrects)", () => {
    const z = normals(5);
    const N = 100;
    const T = 500;
    const trials = Array.from({ length: N }, () => Array.from({ length: T }, () => 0.01 * z()));
    const srs = trials.map((r) => sharpe(r) as number);
    const best = srs.indexOf(Math.max(...srs));
    const d = deflatedSharpe({ returns: trials[best] as number[], trialSharpes: srs, nTrials: N });
    // Undeflated, the winner looks significant; deflated, it does not reach the study's 0.95 bar.
    expect(probabilisticSharpe(srs[best] as number, 0, T, 0, 3)).toBeGreaterThan(0.95);
    expect(d?.dsr).toBeLessThan(0.95);
  });
});

describe("probability of backtest overfitting (CSCV, Bailey, Borwein, López de Prado & Zhu)", () => {
  it("follows the algorithm on a hand-computed 4 × 3 example (S = 2, metric = mean)", () => {
    // Block 0 = rows 0–1, block 1 = rows 2–3; trials A, B, C.
    const m = [
      [1, 0, 0.5],
      [1, 0, 0.5],
      [-1, 2, 0],
      [-1, 2, 0],
    ];
    const meanMetric = (r: readonly number[]) => r.reduce((s, x) => s + x, 0) / r.length;
    const res = pbo(m, { blocks: 2, metric: meanMetric });
    // IS = block 0: best A (1); OOS A = −1 is the worst of (−1, 2, 0): rank 1, ω̄ = 1/4, λ = ln(1/3).
    // IS = block 1: best B (2); OOS B = 0 is the worst of (1, 0, 0.5): rank 1, λ = ln(1/3).
    expect(res.combinations).toBe(2);
    expect(res.logits).toHaveLength(2);
    for (const l of res.logits) expect(l).toBeCloseTo(Math.log(1 / 3), 12);
    expect(res.pbo).toBe(1);
    expect(res.isPerformance).toEqual([1, 2]);
    expect(res.oosPerformance).toEqual([-1, 0]);
    expect(res.meanDegradation).toBeCloseTo(2, 12); // ((1 − (−1)) + (2 − 0)) / 2
    expect(res.degradationSlope).toBeCloseTo(1, 12); // line through (1, −1) and (2, 0)
    expect(res.probOosLoss).toBe(0.5);
    expect(res.droppedRows).toBe(0);
    expect(res.blockSize).toBe(2);
  });

  it("averages tied ranks: identical trials give ω̄ = ½, λ = 0, counted as overfit", () => {
    const u = mulberry32(3);
    const m = Array.from({ length: 40 }, () => {
      const x = u() - 0.5;
      return [x, x, x, x];
    });
    const res = pbo(m, { blocks: 4 });
    expect(res.combinations).toBe(6);
    for (const l of res.logits) expect(l).toBeCloseTo(0, 12);
    expect(res.pbo).toBe(1);
  });

  it("is about 0.5 when every trial is pure noise (averaged over 40 seeded matrices: one matrix's PBO is itself very noisy)", () => {
    const values: number[] = [];
    for (let seed = 100; seed < 140; seed++) {
      const z = normals(seed);
      const m = Array.from({ length: 64 }, () => Array.from({ length: 10 }, z));
      const res = pbo(m, { blocks: 8 });
      expect(res.combinations).toBe(70); // C(8, 4)
      values.push(res.pbo);
    }
    // The selected trial's out-of-sample rank is uniform on 1..10, so P(λ ≤ 0) = P(rank ≤ 5) = ½.
    const avg = values.reduce((s, x) => s + x, 0) / values.length;
    expect(avg).toBeGreaterThan(0.4);
    expect(avg).toBeLessThan(0.65);
  });

  it("is near 0 when one trial has a strong persistent drift and the rest are noise (S = 12: 924 combinations)", () => {
    const z = normals(42);
    const m = Array.from({ length: 120 }, () => Array.from({ length: 20 }, (_, n) => (n === 7 ? 0.8 : 0) + z()));
    const res = pbo(m, { blocks: 12 });
    expect(res.combinations).toBe(924);
    expect(res.blockSize).toBe(10);
    expect(res.pbo).toBeLessThan(0.05);
    expect(res.probOosLoss).toBeLessThan(0.05);
  });

  it("is near 1 when the trials are noise demeaned over the whole sample (in-sample winners are out-of-sample losers)", () => {
    const z = normals(8);
    const raw = Array.from({ length: 96 }, () => Array.from({ length: 16 }, z));
    const means = Array.from({ length: 16 }, (_, n) => raw.reduce((s, r) => s + (r[n] as number), 0) / raw.length);
    const m = raw.map((r) => r.map((x, n) => x - (means[n] as number)));
    const res = pbo(m, { blocks: 8 });
    expect(res.pbo).toBeGreaterThan(0.9);
    expect(res.degradationSlope).toBeLessThan(0);
  });

  it("drops the oldest rows when T is not a multiple of S", () => {
    const z = normals(13);
    const recent = Array.from({ length: 48 }, () => Array.from({ length: 6 }, z));
    const oldest = [
      [100, -100, 50, 0, 3, -7],
      [-40, 90, 0, 10, 2, 1],
      [5, 5, -60, 0, 0, 80],
    ];
    const res = pbo([...oldest, ...recent], { blocks: 6 });
    expect(res.droppedRows).toBe(3);
    expect(res.blockSize).toBe(8);
    expect(res.logits).toEqual(pbo(recent, { blocks: 6 }).logits);
  });

  it("rejects an odd S, ragged rows, too few rows or trials", () => {
    const m = Array.from({ length: 12 }, (_, i) => [i % 3, (i * 7) % 5]);
    expect(() => pbo(m, { blocks: 3 })).toThrow(RangeError);
    expect(() => pbo([[1, 2], [3]], { blocks: 2 })).toThrow(RangeError);
    expect(() => pbo(m.slice(0, 3), { blocks: 4 })).toThrow(RangeError);
    expect(() => pbo(m.map((r) => [r[0] as number]), { blocks: 2 })).toThrow(RangeError);
  });
});

describe("percentile among random entries and type-7 quantile", () => {
  it("counts the share below, ties half, on a 0–100 scale", () => {
    expect(percentileAmong(3, [1, 2, 3, 4])).toBe(62.5); // 2 below + ½ tie of 4
    expect(percentileAmong(0, [1, 2, 3])).toBe(0);
    expect(percentileAmong(9, [1, 2, 3])).toBe(100);
    expect(percentileAmong(2, [2, 2])).toBe(50);
    expect(percentileAmong(1, [])).toBeNull();
  });

  it("interpolates like R's quantile(type = 7) / NumPy's default", () => {
    // Sorted [1, 2, 3, 4, 10]: p = 0.95 → h = 3.8 → 4 + 0.8·(10 − 4) = 8.8; p = 0.25 → h = 1 → 2.
    expect(quantile([10, 3, 1, 4, 2], 0.95)).toBeCloseTo(8.8, 12);
    expect(quantile([10, 3, 1, 4, 2], 0.25)).toBe(2);
    expect(quantile([5], 0.95)).toBe(5);
    expect(quantile([1, 2], 0)).toBe(1);
    expect(quantile([1, 2], 1)).toBe(2);
    // 39 random-entry returns 1..39: the 95th percentile is at h = 38·0.95 = 36.1 → 37 + 0.1 = 37.1.
    expect(quantile(Array.from({ length: 39 }, (_, i) => 39 - i), 0.95)).toBeCloseTo(37.1, 12);
    expect(quantile([], 0.5)).toBeNull();
    expect(() => quantile([1], 1.5)).toThrow(RangeError);
  });
});

/**
 * Logistic regression of family F8 (docs/research/PREREGISTRATION.md): mljs's
 * ml-logistic-regression (full-batch gradient descent) on z-scored features plus an intercept
 * column. The z-scores are the training set's; a feature with no spread is left centred.
 * Labels: 1 = the price rose over the horizon, 0 = it did not.
 */
import LogisticRegression from "ml-logistic-regression";
import { Matrix } from "ml-matrix";

/** Gradient steps and rate (the gradient is a sum over samples, so the rate is divided by n). */
const STEPS = 150;
const RATE = 1.5;

export class LogitModel {
  private constructor(
    private readonly mean: number[],
    private readonly sd: number[],
    private readonly model: LogisticRegression,
  ) {}

  /** Fits on rows `xs` (same length each) with labels `ys` ∈ {0, 1}. @throws Error on empty or ragged input */
  static fit(xs: readonly number[][], ys: readonly number[]): LogitModel {
    if (xs.length === 0 || xs.length !== ys.length) throw new Error("logit: no samples or labels of another length");
    const k = xs[0]!.length;
    const mean = new Array<number>(k).fill(0);
    const sd = new Array<number>(k).fill(0);
    for (const x of xs) for (let j = 0; j < k; j++) mean[j]! += x[j]! / xs.length;
    for (const x of xs) for (let j = 0; j < k; j++) sd[j]! += (x[j]! - mean[j]!) ** 2 / xs.length;
    for (let j = 0; j < k; j++) sd[j] = Math.sqrt(sd[j]!) || 1;
    const model = new LogisticRegression({ numSteps: STEPS, learningRate: RATE / xs.length });
    const rows = xs.map((x) => [1, ...x.map((v, j) => (v - mean[j]!) / sd[j]!)]);
    model.train(new Matrix(rows), Matrix.columnVector([...ys]));
    return new LogitModel(mean, sd, model);
  }

  /** P(label 1 | x). */
  probability(x: readonly number[]): number {
    const row = [1, ...x.map((v, j) => (v - this.mean[j]!) / this.sd[j]!)];
    // Classifier 0 is one-vs-all for class 0: its score is P(not 0) = P(1).
    const c = this.model.classifiers[0];
    return c ? c.testScores(new Matrix([row]))[0]! : 0.5;
  }
}

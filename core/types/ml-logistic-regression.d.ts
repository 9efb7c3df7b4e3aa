/**
 * Minimal types for ml-logistic-regression 2.0.0 (mljs; the package ships none): only what
 * core/research/logit.ts calls. Classes are numbered 0..k−1; with two classes, classifier 0 scores
 * the probability of "not class 0" (one-vs-all), i.e. of class 1.
 */
declare module "ml-logistic-regression" {
  import type { Matrix } from "ml-matrix";
  export default class LogisticRegression {
    constructor(options?: { numSteps?: number; learningRate?: number });
    train(x: Matrix, y: Matrix): void;
    predict(x: Matrix): number[];
    classifiers: { testScores(x: Matrix): number[] }[];
  }
}

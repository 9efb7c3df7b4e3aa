/**
 * Minimal types for jstat 1.9.6 (the package ships none): only the functions core/research/statistics.ts
 * calls. jstat is CommonJS (UMD); under the project's ESM settings it is imported as the default export.
 */
declare module "jstat" {
  interface JStatNormal {
    /** Normal CDF Φ(x; mean, sd). */
    cdf(x: number, mean: number, sd: number): number;
    /** Inverse normal CDF Φ⁻¹(p; mean, sd), p in (0, 1). */
    inv(p: number, mean: number, sd: number): number;
  }
  interface JStatStatic {
    normal: JStatNormal;
    /** Moment skewness m₃ / m₂^{3/2} (population moments). */
    skewness(arr: readonly number[]): number;
    /** Excess kurtosis m₄ / m₂² − 3 (population moments). */
    kurtosis(arr: readonly number[]): number;
  }
  const jStat: JStatStatic;
  export default jStat;
}

/** Vitest without the Remix plugin (Remix docs). Two projects: pure unit tests and integration tests on real PostgreSQL. */
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    projects: [
      {
        plugins: [tsconfigPaths()],
        // Two workers, as integration: vitest's default is cores − 1, i.e. one on CI's 2 cores, and these
        // pure tests are CPU-bound (ADR 0023 amendment: 173 s → 86 s for the 68 files). 20 s per test, not
        // 5: the source scans and property tests take 2–5 s on a busy machine (a bound, not a figure).
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", maxWorkers: 2, testTimeout: 20_000, sequence: { groupOrder: 0 } },
      },
      {
        plugins: [tsconfigPaths()],
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/global-db.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});

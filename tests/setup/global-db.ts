/**
 * Vitest global setup for integration tests: a PostgreSQL server to create one database per test
 * file in. `TEST_DATABASE_URL` when set (CI, developers with a local server); otherwise an embedded
 * PostgreSQL under test-results/.pg (a newcomer's machine needs no server). Also makes sure the
 * production build exists, since integration tests run the real server process.
 */
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../server/embedded-db";

declare module "vitest" {
  export interface ProvidedContext {
    adminDbUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, "../..");
  if (!existsSync(path.join(root, process.env.BUILD_DIR || "build", "server/index.js"))) {
    execSync("npm run build", { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  }
  if (process.env.TEST_DATABASE_URL) {
    project.provide("adminDbUrl", process.env.TEST_DATABASE_URL);
    return;
  }
  const embedded = await startEmbeddedPostgres(path.join(root, "test-results/.pg"));
  project.provide("adminDbUrl", embedded.url);
  return async () => {
    await embedded.stop();
  };
}

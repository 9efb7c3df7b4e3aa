/**
 * Vitest global setup for integration tests: a PostgreSQL server to create one database per test
 * file in. `TEST_DATABASE_URL` when set (CI, developers with a local server); otherwise an embedded
 * PostgreSQL under test-results/.pg (a newcomer's machine needs no server). Also makes sure the
 * production build exists, since integration tests run the real server process.
 * Migrations are applied once here, to a template database (`tpl_<random>`, dropped at teardown);
 * each test file's database is a copy of it (`create database … template`, ADR 0023), which is
 * several times faster than migrating every file's database from empty.
 */
import { execSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { runMigrations } from "../../db/migrate";
import { startEmbeddedPostgres } from "../../server/embedded-db";

declare module "vitest" {
  export interface ProvidedContext {
    adminDbUrl: string;
    /** The migrated template database each test file's database is created from (tests/setup/db.ts). */
    templateDb: string;
  }
}

/** Creates and migrates the template database on `adminUrl`; returns its name and a function dropping it. */
async function createTemplate(adminUrl: string): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `tpl_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  // No connection may stay open on a template while it is copied.
  const sql = postgres(u.toString(), { max: 1, onnotice: () => {} });
  try {
    await runMigrations(sql);
  } finally {
    await sql.end();
  }
  return {
    name,
    async drop() {
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await a.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}

export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, "../..");
  if (!existsSync(path.join(root, process.env.BUILD_DIR || "build", "server/index.js"))) {
    execSync("npm run build", { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  }
  let adminUrl = process.env.TEST_DATABASE_URL;
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  if (!adminUrl) {
    embedded = await startEmbeddedPostgres(path.join(root, "test-results/.pg"));
    adminUrl = embedded.url;
  }
  const template = await createTemplate(adminUrl);
  project.provide("adminDbUrl", adminUrl);
  project.provide("templateDb", template.name);
  return async () => {
    await template.drop();
    await embedded?.stop();
  };
}

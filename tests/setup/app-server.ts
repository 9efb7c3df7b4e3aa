/**
 * Runs the real server (production build) as a child process for integration tests, on a random port,
 * and talks to it over HTTP. The server is the build's bundle `<BUILD_DIR>/server-entry.js` run by
 * plain `node`, as `npm start` and the Dockerfile run it (ADR 0026); when that bundle is missing (a
 * build from before it) or older than one of its sources, `node --import tsx server/index.ts`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export interface AppServer {
  url: string;
  proc: ChildProcess;
  output: () => string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<number | null>;
  /** SIGKILL (a crash) and wait for exit. */
  kill(): Promise<void>;
  /** Resolves when the process exits by itself (e.g. a CRASH_AT fault). */
  exited: Promise<number | null>;
}

/**
 * The command line that starts the server: `[<BUILD_DIR>/server-entry.js]` when that bundle exists and
 * no source listed in its metafile (`server-entry.meta.json`) changed after it, else the sources
 * through tsx (so a test never runs a stale server entry).
 */
export function serverCommand(buildDir = process.env.BUILD_DIR || "build"): string[] {
  const entry = path.resolve(root, buildDir, "server-entry.js");
  const meta = path.resolve(root, buildDir, "server-entry.meta.json");
  if (!existsSync(entry) || !existsSync(meta)) return ["--import", "tsx", "server/index.ts"];
  const built = statSync(entry).mtimeMs;
  const inputs = Object.keys((JSON.parse(readFileSync(meta, "utf8")) as { inputs: Record<string, unknown> }).inputs);
  const stale = inputs.some((f) => !existsSync(path.resolve(root, f)) || statSync(path.resolve(root, f)).mtimeMs > built);
  return stale ? ["--import", "tsx", "server/index.ts"] : [entry];
}

/** Starts the app; resolves once it prints its "Pronto em" line. */
export async function startAppServer(env: Record<string, string>, timeoutMs = 60_000): Promise<AppServer> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), "forex-ia-test-"));
  const proc = spawn(process.execPath, serverCommand(), {
    cwd: root,
    // Tests drive run-once far faster than a person: the per-user action limit is raised unless a test sets it.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...(process.env.BUILD_DIR ? { BUILD_DIR: process.env.BUILD_DIR } : {}), PORT: "0", LOG_LEVEL: "warn", DATA_DIR: dataDir, NODE_ENV: "test", USER_ACTION_RATE_LIMIT: "100000", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`servidor não iniciou em ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const check = () => {
      const m = /Pronto em (http:\/\/localhost:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on("data", check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`servidor saiu com código ${code}:\n${out}`));
    });
  });
  return {
    url,
    proc,
    output: () => out,
    exited,
    async stop() {
      proc.kill("SIGTERM");
      return exited;
    },
    async kill() {
      proc.kill("SIGKILL");
      await exited;
    },
  };
}

/** A tiny JSON client for the app's API with a bearer token. */
export function apiClient(baseUrl: string, token?: string) {
  return async function call<T = Record<string, unknown>>(method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(baseUrl + p, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T };
  };
}

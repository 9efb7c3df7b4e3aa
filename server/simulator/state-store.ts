/**
 * Persists the simulator state as one JSON file so a restart keeps users, accounts, trades and
 * transactions. Writes are atomic (temp file + rename).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { SimStateStore } from "../../core/simulator/simulator";
import type { SimState } from "../../core/simulator/state";

/**
 * Reads the state file; undefined when it does not exist.
 * @throws Error when the file exists but is not a version-1 simulator state
 */
export function loadState(path: string): SimState | undefined {
  if (!existsSync(path)) return undefined;
  const s = JSON.parse(readFileSync(path, "utf8")) as SimState;
  if (s?.version !== 1 || !Array.isArray(s.users) || !Array.isArray(s.accounts)) throw new Error(`Not a simulator state file: ${path}`);
  return s;
}

/** Writes the state file atomically, creating its folder; readable by the owner only (it holds broker tokens). */
export function saveState(path: string, state: SimState): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
  renameSync(tmp, path);
}

/** The simulator's store on a JSON file (core/simulator's `SimStateStore`). */
export function fileStateStore(path: string): SimStateStore {
  return { load: () => loadState(path), save: (state) => saveState(path, state) };
}

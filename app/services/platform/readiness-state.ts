/**
 * What this process knows about its own readiness (issue 24, `/ready`: app/services/platform/health.server.ts):
 * whether its workers started (`WORKERS=on`), whether shutdown began, and when the broker last
 * answered one of the product's own requests (a bot tick, a screen, the price stream, a probe).
 * Plain state with no imports, so the rooms that note these facts (server/background.ts, the broker
 * client, the price hub) pull in nothing. Kept in a globalThis slot, like the config, so a Vite dev
 * reload of this module keeps what boot noted.
 */

interface ReadinessState {
  workersStarted: boolean;
  shuttingDown: boolean;
  /** ms since the epoch; 0 = never. */
  brokerAnsweredAt: number;
}

declare global {
  var __forexIaReadiness: ReadinessState | undefined;
}

function state(): ReadinessState {
  return (globalThis.__forexIaReadiness ??= { workersStarted: false, shuttingDown: false, brokerAnsweredAt: 0 });
}

/** server/background.ts: the scheduler and the pg-boss workers of this process are running. */
export function markWorkersStarted(): void {
  state().workersStarted = true;
}

/** server/index.ts, first thing on SIGTERM/SIGINT: `/ready` answers 503 ("encerrando") from now on. */
export function markShuttingDown(): void {
  state().shuttingDown = true;
}

/** Whether shutdown began (markShuttingDown). */
export function isShuttingDown(): boolean {
  return state().shuttingDown;
}

/** Whether this process's workers started (markWorkersStarted). */
export function workersStarted(): boolean {
  return state().workersStarted;
}

/**
 * The broker answered (any HTTP status below 500, or a pricing-stream heartbeat) at `at` (ms since
 * the epoch). Called on every answer of the product's own broker requests; costs one assignment.
 */
export function noteBrokerAnswer(at = Date.now()): void {
  const s = state();
  if (at > s.brokerAnsweredAt) s.brokerAnsweredAt = at;
}

/** When the broker last answered (ms since the epoch; 0 = not since boot). */
export function brokerAnsweredAt(): number {
  return state().brokerAnsweredAt;
}

/** Test helper: forgets everything noted. */
export function resetReadinessState(): void {
  globalThis.__forexIaReadiness = undefined;
}

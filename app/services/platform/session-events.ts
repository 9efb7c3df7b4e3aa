/**
 * Sessions that end in this process (issue 24: open price streams outlived logout, password reset and
 * deactivation — 45 events in the 20 s after logout). The identity and admin rooms announce the end
 * (`sessionsEnded`) after revoking; the streams room, above them in the layering (architecture.json),
 * listens (`onSessionsEnded`) and closes what it holds for that session or user. A session revoked by
 * another process is caught by the streams' own re-check on each heartbeat (sse-routes.server.ts).
 */

/** One session (by the SHA-256 hash of its token) or every session of a user. */
export type SessionEnd = { tokenHash: string } | { userId: string };

type Listener = (end: SessionEnd) => void;

declare global {
  var __sessionEndListeners: Set<Listener> | undefined;
}

const listeners = (): Set<Listener> => (globalThis.__sessionEndListeners ??= new Set());

/** Registers `fn` for every session end announced in this process; returns its removal. */
export function onSessionsEnded(fn: Listener): () => void {
  listeners().add(fn);
  return () => listeners().delete(fn);
}

/** Announces that a session (or all of a user's) ended. Never throws: a failing listener is skipped. */
export function sessionsEnded(end: SessionEnd): void {
  for (const fn of listeners()) {
    try {
      fn(end);
    } catch {
      // a listener's failure is its own (the revocation already committed)
    }
  }
}

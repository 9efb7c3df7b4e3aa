/**
 * The graduated kill switch, the pure parts (issue 22 "What a paying trader still trips on"): the
 * three levels — 'Parar novas entradas' (manage-only by the user's choice), 'Pausar IA' (the loop
 * off), 'Fechar tudo e pausar' (the loop off first, then every open trade closed) — the level the
 * AI is at now, and which levels the hero offers from there. No I/O: safe on server and client.
 */

/** The levels, mildest first. */
export const KILL_SWITCH_LEVELS = ["stop_entries", "pause", "close_all"] as const;
export type KillSwitchLevel = (typeof KILL_SWITCH_LEVELS)[number];

/** Where a level was pulled from (written in its notification, the audit). */
export type KillSwitchSource = "app" | "push";

/** True for one of the three level names. */
export function isKillSwitchLevel(value: unknown): value is KillSwitchLevel {
  return typeof value === "string" && (KILL_SWITCH_LEVELS as readonly string[]).includes(value);
}

/**
 * Where the AI stands now: "running" (opens trades), "licence" (manage-only because the licence
 * lapsed, issue 9), or the kill-switch level in force — "stop_entries" (on, manage-only by the
 * user), "close_all" (off since 'Fechar tudo e pausar' and not started since), else "pause" (off).
 */
export type KillSwitchState = "running" | "licence" | KillSwitchLevel;

/** What the state is read from: the loop status (`isActive`, `loopState.manageOnlyCode`) and whether a close-all still holds. */
export interface KillSwitchInput {
  isActive: boolean;
  manageOnlyCode: string | null | undefined;
  closedAll: boolean;
}

/** The current state (see KillSwitchState). */
export function killSwitchState(s: KillSwitchInput): KillSwitchState {
  if (s.isActive) return s.manageOnlyCode === "user" ? "stop_entries" : s.manageOnlyCode ? "licence" : "running";
  return s.closedAll ? "close_all" : "pause";
}

/**
 * The levels worth offering from a state: every level while the AI is on (stop-entries only while
 * it still opens trades or only the licence holds it), just 'Fechar tudo e pausar' once it is off
 * (open trades — e.g. the user's own — can still be closed). `resume` says whether "Retomar
 * entradas" is offered (only after the user's own stop-entries).
 */
export function killSwitchOffers(state: KillSwitchState): { levels: KillSwitchLevel[]; resume: boolean } {
  if (state === "running" || state === "licence") return { levels: [...KILL_SWITCH_LEVELS], resume: false };
  if (state === "stop_entries") return { levels: ["pause", "close_all"], resume: true };
  return { levels: ["close_all"], resume: false };
}

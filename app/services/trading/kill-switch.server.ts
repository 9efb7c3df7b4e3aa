/**
 * The graduated kill switch (issue 22 "What a paying trader still trips on"): three levels, pulled
 * from the hero (app) or a push's one-tap action (push), each audited by a notification saying the
 * level, where it was pulled from and what came of it.
 *
 * 1. 'Parar novas entradas' (`stopNewEntries`): the loop stays on in manage-only with reason "user"
 *    (bots.manage_only_reason, migration 0012): open trades keep their stop loss / take profit and
 *    are still reconciled and managed (max hold, weekend flat); nothing new opens. Unlike the
 *    licence's manage-only it does not follow the licence: only "Retomar entradas"
 *    (`resumeEntries`), a stop or a new start end it.
 * 2. 'Pausar IA' (`pauseAi`): the loop off, stop reason manual (stopBot).
 * 3. 'Fechar tudo e pausar' (`closeAllAndPause`): the loop off FIRST (and bots.closed_all_at, so not
 *    even a forced tick reopens until the user starts the AI again), then — once any tick in flight
 *    has ended (the user's trading lock) — every open trade closed at market; closed/failed reported.
 */
import { msg, type Msg } from "../../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { isKillSwitchLevel, type KillSwitchLevel, type KillSwitchSource } from "~/lib/kill-switch";
import { forgetAccountState } from "../broker/account-cache.server";
import { stopBot } from "./bot-stop.server";
import { brokerFailure, requireBroker } from "../broker/broker.server";
import { config } from "../platform/config.server";
import { db } from "../platform/db.server";
import { ConflictError, DomainError, PaymentRequiredError, ValidationError } from "../platform/errors.server";
import { hasValidLicence } from "../identity/licence.server";
import { logger } from "../platform/logger.server";
import { notify } from "../notify/notifications.server";
import { closeTrade } from "./trades.server";
import { withUserLock } from "../platform/user-lock.server";
import { closeAllAndPauseBot, resumeEntriesByUser, stopEntriesByUser } from "../../../db/queries/bots";

/** What a level did: its texts (messages, and `message` in the caller's language) and the loop's state after it. */
export interface KillSwitchResult {
  success: true;
  level: KillSwitchLevel | "resume_entries";
  /** False when the AI was already at that level (nothing changed; still audited). */
  changed: boolean;
  isActive: boolean;
  title: Msg;
  messageMsg: Msg;
  message: string;
  /** 'Fechar tudo e pausar' only: trades closed and trades the broker did not close. */
  closed?: number;
  failed?: number;
}

const where = (source: KillSwitchSource) => msg(`kill-switch:source.${source}`);

/** Writes the audit notification of a level and builds the answer. */
async function audited(
  userId: string,
  source: KillSwitchSource,
  r: Omit<KillSwitchResult, "success" | "message">,
  type: "warning" | "info" | "error" | "success",
  language: unknown,
): Promise<KillSwitchResult> {
  await notify(userId, {
    type,
    title: r.title,
    message: r.messageMsg,
    metadata: {
      killSwitch: r.level,
      source,
      changed: r.changed,
      ...(r.closed !== undefined ? { closed: r.closed, failed: r.failed } : {}),
      // A push's own confirmation carries no buttons and reaches every device (app/lib/push.ts topicOf).
      ...(source === "push" ? { pushAction: r.level } : {}),
    },
  });
  logger().info({ userId, level: r.level, source, changed: r.changed, closed: r.closed, failed: r.failed }, "parada de emergência");
  return { success: true, ...r, message: translateMsg(r.messageMsg, language) };
}

/**
 * Level 1, 'Parar novas entradas': the running loop turns manage-only with reason "user" (replacing a
 * licence manage-only, so it outlives the licence coming back). Idempotent (already stopped: audited,
 * `changed` false). @throws ConflictError (409) when the AI is off ('A IA está desligada…').
 */
export async function stopNewEntries(userId: string, source: KillSwitchSource, language: unknown = "pt"): Promise<KillSwitchResult> {
  const row = await stopEntriesByUser(db(), userId);
  if (!row) throw new ConflictError(msg("kill-switch:errors.notRunning"));
  return audited(
    userId,
    source,
    {
      level: "stop_entries",
      changed: row.changed,
      isActive: true,
      title: msg("kill-switch:notice.stop_entries.title"),
      messageMsg: msg(row.changed ? "kill-switch:notice.stop_entries.message" : "kill-switch:notice.stop_entries.already", { where: where(source) }),
    },
    "warning",
    language,
  );
}

/**
 * "Retomar entradas": ends the user's 'Parar novas entradas'; the next tick opens trades again (or,
 * with a lapsed licence, turns manage-only for the licence). @throws PaymentRequiredError (402)
 * without a valid licence (as starting the AI); ConflictError (409) when entries are not stopped by the user.
 */
export async function resumeEntries(user: { id: string; role: string; subscription_status: string }, source: KillSwitchSource, language: unknown = "pt"): Promise<KillSwitchResult> {
  if (!(await hasValidLicence(user))) throw new PaymentRequiredError(msg("kill-switch:errors.licence"), { licenseRequired: true });
  if (!(await resumeEntriesByUser(db(), user.id))) throw new ConflictError(msg("kill-switch:errors.notStopped"));
  return audited(
    user.id,
    source,
    { level: "resume_entries", changed: true, isActive: true, title: msg("kill-switch:notice.resume.title"), messageMsg: msg("kill-switch:notice.resume.message", { where: where(source) }) },
    "success",
    language,
  );
}

/** Level 2, 'Pausar IA': the loop off (stop reason manual, leaving any manage-only). Idempotent: already off is audited with `changed` false. */
export async function pauseAi(userId: string, source: KillSwitchSource, language: unknown = "pt"): Promise<KillSwitchResult> {
  const changed = await stopBot(userId, "manual");
  return audited(
    userId,
    source,
    {
      level: "pause",
      changed,
      isActive: false,
      title: msg("kill-switch:notice.pause.title"),
      messageMsg: msg(changed ? "kill-switch:notice.pause.message" : "kill-switch:notice.pause.already", { where: where(source) }),
    },
    "warning",
    language,
  );
}

/** Closes every open trade at the broker, one by one (a failure does not stop the others). */
async function closeEveryTrade(userId: string, language: unknown): Promise<{ closed: number; failed: number }> {
  const { conn, client } = await requireBroker(userId);
  const open = await client.listOpenTrades(conn.account_id).catch((err: unknown) => {
    throw brokerFailure(err);
  });
  let closed = 0;
  let failed = 0;
  try {
    for (const t of open) {
      try {
        await closeTrade(userId, t.id, "ALL", language);
        closed++;
      } catch (err) {
        failed++;
        logger().warn({ userId, tradeId: t.id, err: err instanceof DomainError ? err.message : String(err) }, "fechar tudo: trade não fechado");
      }
    }
  } finally {
    forgetAccountState(userId);
  }
  return { closed, failed };
}

/**
 * Level 3, 'Fechar tudo e pausar': marks the close-all and stops the loop FIRST (one statement; a
 * user without a bot row gets one, off), waits for a tick in flight to end (the user's trading lock,
 * at most the tick deadline), then closes every open trade at market. Reports closed/failed.
 * @throws the broker's errors when the open trades cannot even be listed (no connection: 400; broker
 * down: 502) — the loop stays off and that failure is audited too.
 */
export async function closeAllAndPause(userId: string, source: KillSwitchSource, language: unknown = "pt"): Promise<KillSwitchResult> {
  const wasActive = await closeAllAndPauseBot(db(), userId);
  const run = () => closeEveryTrade(userId, language);
  const base = { level: "close_all" as const, changed: true, isActive: false, title: msg("kill-switch:notice.close_all.title") };
  let outcome: { closed: number; failed: number };
  try {
    const locked = await withUserLock(userId, run, { waitMs: (config().TICK_TIMEOUT_SEC + 5) * 1000 });
    outcome = locked.acquired ? locked.value : await run();
  } catch (err) {
    const error = err instanceof DomainError ? err.msg : msg("kill-switch:errors.unknown");
    await audited(userId, source, { ...base, messageMsg: msg("kill-switch:notice.close_all.error", { where: where(source), error }) }, "error", language);
    throw err;
  }
  const { closed, failed } = outcome;
  const key = failed ? "partial" : wasActive ? "message" : "messageWasOff";
  return audited(
    userId,
    source,
    { ...base, closed, failed, messageMsg: msg(`kill-switch:notice.close_all.${key}`, { where: where(source), closed, failed }) },
    failed ? "error" : "warning",
    language,
  );
}

/** Runs a level by name. */
export function runKillSwitch(userId: string, level: KillSwitchLevel, source: KillSwitchSource, language: unknown = "pt"): Promise<KillSwitchResult> {
  if (level === "stop_entries") return stopNewEntries(userId, source, language);
  if (level === "pause") return pauseAi(userId, source, language);
  return closeAllAndPause(userId, source, language);
}

/**
 * The hero's form without JavaScript: intent=kill_switch with `level` and confirm=1 runs the level;
 * intent=resume_entries resumes. @throws ValidationError (400) on an unknown level or without the
 * confirmation, and the levels' own errors.
 */
export async function killSwitchForm(user: { id: string; role: string; subscription_status: string }, form: FormData, language: unknown): Promise<KillSwitchResult> {
  if (form.get("intent") === "resume_entries") return resumeEntries(user, "app", language);
  const level = form.get("level");
  if (!isKillSwitchLevel(level)) throw new ValidationError(msg("kill-switch:errors.level"));
  if (form.get("confirm") !== "1") throw new ValidationError(msg("kill-switch:errors.confirm"));
  return runKillSwitch(user.id, level, "app", language);
}

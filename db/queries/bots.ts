/**
 * The `bots` table (migrations 0001, 0012, 0017, 0020, 0021): one row per user, the AI loop's state — on or
 * off and why it stopped, interval and due slot, last tick and its error, the high-water mark, manage-only,
 * the max-drawdown stop and the kill switch's close-all. Its statements live here (issue 23 item 2); the
 * tick's batched context read joins it in tick-context.ts. Times are timestamptz (Dates); the high-water
 * mark is numeric (decimal text); messages are jsonb.
 */
import type { Msg } from "../../core/i18n/message";
import type { DrawdownStop } from "../../core/risk/drawdown";
import type { Sql } from "./sql";

/** A `bots` row as `select *` returns it. */
export interface BotRow {
  user_id: string;
  is_active: boolean;
  interval_sec: number;
  last_started_at: Date | null;
  last_stopped_at: Date | null;
  last_stop_reason: string | null;
  last_tick_at: Date | null;
  last_tick_error: string | null;
  last_tick_error_msg: unknown;
  peak_balance: string | null;
  /** When the high-water mark was last raised, on the broker's clock (issue 21); null until a tick raises it. */
  peak_at: Date | null;
  /** Set by a max-drawdown stop until the user re-arms (core/risk/drawdown.ts; a row stopped before issue 21 has only `at`). */
  drawdown_stop: Partial<DrawdownStop> | null;
  day_start: Date | null;
  day_start_balance: string | null;
  /** Set while the bot only manages its open trades (issue 9); meaningful only while is_active. */
  manage_only_since: Date | null;
  manage_only_reason: string | null;
}

/** The user's bot row (undefined: never started). */
export async function botRow(sql: Sql, userId: string): Promise<BotRow | undefined> {
  const [row] = await sql<BotRow[]>`select * from bots where user_id = ${userId}`;
  return row;
}

/** The bot's max-drawdown stop and high-water mark (decimal text), read before a start (undefined: no bot). */
export async function drawdownState(sql: Sql, userId: string): Promise<Pick<BotRow, "drawdown_stop" | "peak_balance"> | undefined> {
  const [state] = await sql<Pick<BotRow, "drawdown_stop" | "peak_balance">[]>`select drawdown_stop, peak_balance::text as peak_balance from bots where user_id = ${userId}`;
  return state;
}

/**
 * Turns the loop on with `intervalSec` (seconds), creating the row if needed; clears the tick error and
 * manage-only. With `rearm` also resets the high-water mark and clears a max-drawdown stop; without it a
 * bot holding a drawdown stop is left alone. Returns whether the loop was started.
 */
export async function startBotRow(sql: Sql, userId: string, intervalSec: number, rearm: boolean): Promise<boolean> {
  const started = await sql`insert into bots (user_id, is_active, interval_sec, last_started_at)
    values (${userId}, true, ${intervalSec}, now())
    on conflict (user_id) do update set is_active = true, interval_sec = excluded.interval_sec,
      last_started_at = now(), last_tick_error = null, last_tick_error_msg = null,
      manage_only_since = null, manage_only_reason = null, updated_at = now(),
      peak_balance = case when ${rearm} then null else bots.peak_balance end,
      peak_at = case when ${rearm} then null else bots.peak_at end,
      drawdown_stop = case when ${rearm} then null else bots.drawdown_stop end
    where ${rearm} or bots.drawdown_stop is null
    returning user_id`;
  return started.length > 0;
}

/** True while the loop is off with a max-drawdown stop recorded (issue 21: only a re-arm starts it). */
export async function rearmRequired(sql: Sql, userId: string): Promise<boolean> {
  const [row] = await sql<{ required: boolean }[]>`select (not is_active and drawdown_stop is not null) as required from bots where user_id = ${userId}`;
  return row?.required === true;
}

/**
 * THE stop statement (PRODUCT.md §4): deactivates a running loop with `reason`, leaving manage-only.
 * Used by bot control's `stopBot`, the tick's stops, the kill switch and the broker's disconnect (in
 * its transaction). Returns whether the loop was on.
 */
export async function deactivateBot(sql: Sql, userId: string, reason: string): Promise<boolean> {
  const rows = await sql`update bots set is_active = false, last_stopped_at = now(), last_stop_reason = ${reason},
      manage_only_since = null, manage_only_reason = null, updated_at = now()
    where user_id = ${userId} and is_active returning user_id`;
  return rows.length > 0;
}

/** The max-drawdown stop (issue 21): `deactivateBot` with reason 'max_drawdown' that also stores `record` (jsonb). Returns whether the loop was on. */
export async function drawdownStopBot(sql: Sql, userId: string, record: DrawdownStop): Promise<boolean> {
  const stopped = await sql`update bots set is_active = false, last_stopped_at = now(), last_stop_reason = 'max_drawdown',
      manage_only_since = null, manage_only_reason = null, drawdown_stop = ${sql.json(record as never)}, updated_at = now()
    where user_id = ${userId} and is_active returning user_id`;
  return stopped.length > 0;
}

/** True while a 'Fechar tudo e pausar' holds: `closed_all_at` set, the loop off and not started since. */
export async function closedAllHolds(sql: Sql, userId: string): Promise<boolean> {
  const [row] = await sql<{ holds: boolean }[]>`
    select (closed_all_at is not null and not is_active and (last_started_at is null or closed_all_at > last_started_at)) as holds
    from bots where user_id = ${userId}`;
  return row?.holds === true;
}

/** A running loop enters the licence's manage-only with `reason` unless already in it. Returns whether it changed. */
export async function enterManageOnly(sql: Sql, userId: string, reason: string): Promise<boolean> {
  const rows = await sql`update bots set manage_only_since = now(), manage_only_reason = ${reason}, updated_at = now()
      where user_id = ${userId} and is_active and manage_only_since is null returning user_id`;
  return rows.length > 0;
}

/** Leaves manage-only unless the user chose it (reason 'user', issue 22). Returns whether it changed. */
export async function leaveLicenceManageOnly(sql: Sql, userId: string): Promise<boolean> {
  const rows = await sql`update bots set manage_only_since = null, manage_only_reason = null, updated_at = now()
      where user_id = ${userId} and manage_only_since is not null and manage_only_reason is distinct from 'user' returning user_id`;
  return rows.length > 0;
}

/**
 * 'Parar novas entradas' (issue 22): a running loop turns manage-only with reason 'user' (kept since
 * when already so). Undefined when the loop is off; `changed` false when it already was.
 */
export async function stopEntriesByUser(sql: Sql, userId: string): Promise<{ changed: boolean } | undefined> {
  const [row] = await sql<{ changed: boolean }[]>`
    with prev as (select manage_only_reason from bots where user_id = ${userId} and is_active for update)
    update bots b set manage_only_since = case when prev.manage_only_reason = 'user' then b.manage_only_since else now() end,
      manage_only_reason = 'user', updated_at = now()
    from prev where b.user_id = ${userId} and b.is_active
    returning (prev.manage_only_reason is distinct from 'user') as changed`;
  return row;
}

/** "Retomar entradas": ends a running loop's manage-only with reason 'user'. Returns whether it did. */
export async function resumeEntriesByUser(sql: Sql, userId: string): Promise<boolean> {
  const rows = await sql`update bots set manage_only_since = null, manage_only_reason = null, updated_at = now()
    where user_id = ${userId} and is_active and manage_only_reason = 'user' returning user_id`;
  return rows.length > 0;
}

/**
 * 'Fechar tudo e pausar' (issue 22): sets `closed_all_at` and turns the loop off (stop reason 'manual' if
 * it was on, leaving manage-only), creating an inactive row if the user has none. Returns whether it was on.
 */
export async function closeAllAndPauseBot(sql: Sql, userId: string): Promise<boolean> {
  const [prev] = await sql<{ was_active: boolean | null }[]>`
    with prev as (select is_active from bots where user_id = ${userId})
    insert into bots (user_id, is_active, closed_all_at) values (${userId}, false, now())
    on conflict (user_id) do update set is_active = false, closed_all_at = now(), updated_at = now(),
      last_stopped_at = case when bots.is_active then now() else bots.last_stopped_at end,
      last_stop_reason = case when bots.is_active then 'manual' else bots.last_stop_reason end,
      manage_only_since = null, manage_only_reason = null
    returning (select is_active from prev) as was_active`;
  return prev?.was_active === true;
}

/** The bot's high-water mark (decimal text) and last start, for the risk counters of a manual order (undefined: no bot). */
export async function riskAnchors(sql: Sql, userId: string): Promise<{ peak_balance: string | null; last_started_at: Date | null } | undefined> {
  const [bot] = await sql<{ peak_balance: string | null; last_started_at: Date | null }[]>`
    select peak_balance::text as peak_balance, last_started_at from bots where user_id = ${userId}`;
  return bot;
}

/** Since when a running loop is in manage-only (null: trading; undefined: no running loop). */
export async function activeManageOnlySince(sql: Sql, userId: string): Promise<Date | null | undefined> {
  const [bot] = await sql<{ manage_only_since: Date | null }[]>`select manage_only_since from bots where user_id = ${userId} and is_active`;
  return bot?.manage_only_since;
}

/** One claimed due slot of `claimDueBots`: the bot, the slot's due time, its interval (seconds). */
export interface ClaimedBotRow {
  user_id: string;
  due_at: Date;
  interval_sec: number;
}

/**
 * Claims up to `limit` due active bots, oldest due first, in one statement (ADR 0024): each `next_tick_at`
 * moves to the next slot after now (due + k × interval, k ≥ 1); rows locked by another claimer are skipped.
 */
export async function claimDueBots(sql: Sql, limit: number): Promise<ClaimedBotRow[]> {
  return sql<ClaimedBotRow[]>`
    with due as (
      select user_id, next_tick_at from bots
      where is_active and next_tick_at <= now()
      order by next_tick_at
      limit ${limit}
      for update skip locked
    )
    update bots b
    set next_tick_at = due.next_tick_at + make_interval(secs => b.interval_sec *
      (floor(extract(epoch from (now() - due.next_tick_at)) / b.interval_sec) + 1))
    from due
    where b.user_id = due.user_id
    returning b.user_id, due.next_tick_at as due_at, b.interval_sec`;
}

/** Makes an active bot due `delaySeconds` from now unless it is due sooner. Returns whether an active bot was found. */
export async function makeBotDue(sql: Sql, userId: string, delaySeconds: number): Promise<boolean> {
  const rows = await sql`update bots set next_tick_at = least(next_tick_at, now() + make_interval(secs => ${delaySeconds}))
    where user_id = ${userId} and is_active returning user_id`;
  return rows.length > 0;
}

/** Stores a failed tick on the bot: last tick now, the error's text and its message (jsonb; null: none). */
export async function recordTickError(sql: Sql, userId: string, message: string, errorMsg: Msg | null): Promise<void> {
  await sql`update bots set last_tick_at = now(), last_tick_error = ${message}, last_tick_error_msg = ${errorMsg === null ? null : sql.json(errorMsg as never)} where user_id = ${userId}`;
}

/** A tick that ended without error: its NAV (decimal text; null: none read), its broker-clock instant, and when its sync confirmed the stored account state. */
export interface TickDoneRow {
  userId: string;
  nav: string | null;
  at: Date | null;
  syncedAt: Date | null;
}

/**
 * The end of the ticks ending at once, ONE statement (ADR 0032, batched by `unnest`): each bot's last tick
 * and cleared error, its high-water mark raised with the NAV (never lowered, `peak_at` = the tick's instant
 * when raised), and `account_states.synced_at` moved for the ticks that synced (ADR 0027).
 */
export async function recordTicksDone(sql: Sql, done: readonly TickDoneRow[]): Promise<void> {
  await sql`with v as (
        select * from unnest(${done.map((d) => d.userId)}::uuid[], ${done.map((d) => d.nav)}::numeric[], ${done.map((d) => d.syncedAt?.toISOString() ?? null)}::timestamptz[],
          ${done.map((d) => d.at?.toISOString() ?? null)}::timestamptz[])
          as v(user_id, nav, synced_at, at)
      ), synced as (
        update account_states a set synced_at = v.synced_at from v where a.user_id = v.user_id and v.synced_at is not null
      )
      update bots b set last_tick_at = now(), last_tick_error = null, last_tick_error_msg = null,
        peak_at = case when v.nav is not null and (b.peak_balance is null or v.nav > b.peak_balance) then coalesce(v.at, now()) else b.peak_at end,
        peak_balance = greatest(b.peak_balance, v.nav) from v where b.user_id = v.user_id`;
}

/** `recordTicksDone` for one tick alone (a batch of one, and the retry of each item of a refused batch). */
export async function recordTickDone(sql: Sql, d: TickDoneRow): Promise<void> {
  const synced = d.syncedAt ? sql`with synced as (update account_states set synced_at = ${d.syncedAt} where user_id = ${d.userId}) ` : sql``;
  await sql`${synced}update bots set last_tick_at = now(), last_tick_error = null, last_tick_error_msg = null,
      peak_at = case when ${d.nav}::numeric is not null and (peak_balance is null or ${d.nav}::numeric > peak_balance) then coalesce(${d.at}::timestamptz, now()) else peak_at end,
      peak_balance = greatest(peak_balance, ${d.nav}::numeric) where user_id = ${d.userId}`;
}

/** Active bots of the whole database (the backup/restore summary, server/backup.ts). */
export async function countActiveBots(sql: Sql): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from bots where is_active`;
  return row!.n;
}

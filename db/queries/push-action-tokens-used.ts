/**
 * The `push_action_tokens_used` table (migration 0014): the ids (`jti`) of the push one-tap action
 * tokens already run, so each runs once (ADR 0016), kept a day past their expiry. Its statements live
 * here (issue 23 item 2).
 */
import type { Sql } from "./sql";

/** Records a token as used; false when it already was (atomic: `on conflict (jti) do nothing`). `exp` in Unix seconds. */
export async function consumeActionToken(sql: Sql, jti: string, userId: string, action: string, exp: number): Promise<boolean> {
  const consumed = await sql`insert into push_action_tokens_used (jti, user_id, action, expires_at)
    values (${jti}, ${userId}, ${action}, to_timestamp(${exp})) on conflict (jti) do nothing returning jti`;
  return consumed.length > 0;
}

/** Forgets the used tokens expired more than a day ago. */
export async function purgeExpiredActionTokens(sql: Sql): Promise<void> {
  await sql`delete from push_action_tokens_used where expires_at < now() - interval '1 day'`;
}

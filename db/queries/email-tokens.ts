/**
 * The `email_tokens` table: the single-use links of e-mail verification and password reset, by the
 * SHA-256 hash of the token, with purpose, expiry and use mark (app/services/identity/verification.server.ts).
 * Its statements live here (issue 23 item 2).
 */
import type { Sql } from "./sql";

/** What a token is for. */
export type EmailTokenPurpose = "verify" | "reset";

/** Marks the user's unused reset tokens used (a new one replaces them). */
export async function retireResetTokens(sql: Sql, userId: string): Promise<void> {
  await sql`update email_tokens set used_at = now() where user_id = ${userId} and purpose = 'reset' and used_at is null`;
}

/** Stores a token hash of the user, valid `hours` from now. */
export async function insertEmailToken(sql: Sql, userId: string, purpose: EmailTokenPurpose, tokenHash: string, hours: number): Promise<void> {
  await sql`insert into email_tokens (user_id, purpose, token_hash, expires_at)
    values (${userId}, ${purpose}, ${tokenHash}, now() + ${hours} * interval '1 hour')`;
}

/** The user of a still-valid (unused, unexpired) token, without consuming it. */
export async function validTokenUser(sql: Sql, tokenHash: string, purpose: EmailTokenPurpose): Promise<string | undefined> {
  const [row] = await sql<{ user_id: string }[]>`select user_id from email_tokens
    where token_hash = ${tokenHash} and purpose = ${purpose} and used_at is null and expires_at > now()`;
  return row?.user_id;
}

/** Consumes a still-valid verification token; answers its user (undefined when invalid, used or expired). */
export async function consumeVerifyToken(sql: Sql, tokenHash: string): Promise<string | undefined> {
  const [row] = await sql<{ user_id: string }[]>`update email_tokens set used_at = now()
        where token_hash = ${tokenHash} and purpose = 'verify' and used_at is null and expires_at > now()
        returning user_id`;
  return row?.user_id;
}

/** Consumes a still-valid reset token; answers its user (undefined when invalid, used or expired). */
export async function consumeResetToken(sql: Sql, tokenHash: string): Promise<string | undefined> {
  const [row] = await sql<{ user_id: string }[]>`update email_tokens set used_at = now()
      where token_hash = ${tokenHash} and purpose = 'reset' and used_at is null and expires_at > now()
      returning user_id`;
  return row?.user_id;
}

/** Deletes the user's unused tokens. */
export async function deleteUnusedTokens(sql: Sql, userId: string): Promise<void> {
  await sql`delete from email_tokens where user_id = ${userId} and used_at is null`;
}

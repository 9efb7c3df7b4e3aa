/**
 * The `sessions` table: one row per login, by the SHA-256 hash of its token (the raw token only goes
 * to the client), with its expiry, the "remember me" flag, the device's user agent and IP, and the
 * revocation mark (app/services/identity/auth.server.ts opens and reads them). Its statements live
 * here (issue 23 item 2).
 */
import type { Sql } from "./sql";
import type { UserRow } from "./users";

/** What a new session records. */
export interface NewSession {
  userId: string;
  tokenHash: string;
  remember: boolean;
  expires: Date;
  userAgent: string | null;
  ip: string | null;
}

/** Stores a new session. */
export async function insertSession(sql: Sql, s: NewSession): Promise<void> {
  await sql`insert into sessions (user_id, token_hash, remember, expires_at, user_agent, ip)
    values (${s.userId}, ${s.tokenHash}, ${s.remember}, ${s.expires},
            ${s.userAgent}, ${s.ip})`;
}

/** The active user of a live (unrevoked, unexpired) session by token hash. */
export async function sessionUser(sql: Sql, tokenHash: string): Promise<UserRow | undefined> {
  const [user] = await sql<UserRow[]>`select u.* from sessions s join users u on u.id = s.user_id
    where s.token_hash = ${tokenHash} and s.revoked_at is null and s.expires_at > now() and u.is_active`;
  return user;
}

/**
 * Of `tokenHashes`, those whose session is still live (unrevoked, unexpired, active user), in one
 * statement: the SSE streams re-check their sessions on each heartbeat (issue 24).
 */
export async function liveSessionHashes(sql: Sql, tokenHashes: readonly string[]): Promise<Set<string>> {
  if (tokenHashes.length === 0) return new Set();
  const rows = await sql<{ token_hash: string }[]>`select s.token_hash from sessions s join users u on u.id = s.user_id
    where s.token_hash = any(${tokenHashes as string[]}::text[]) and s.revoked_at is null and s.expires_at > now() and u.is_active`;
  return new Set(rows.map((r) => r.token_hash));
}

/** Revokes the session of a token hash (if still live). */
export async function revokeSessionByToken(sql: Sql, tokenHash: string): Promise<void> {
  await sql`update sessions set revoked_at = now() where token_hash = ${tokenHash} and revoked_at is null`;
}

/** Revokes every live session of the user; answers how many. */
export async function revokeUserSessions(sql: Sql, userId: string): Promise<number> {
  return (await sql`update sessions set revoked_at = now() where user_id = ${userId} and revoked_at is null returning id`).length;
}

/**
 * E-mail verification and password reset (PRODUCT.md §2, §8; DESIGN.md §7): single-use tokens stored
 * as SHA-256 hashes (verification valid 24 h, reset 1 h), the e-mails that carry them, and the
 * per-e-mail / per-IP limits of resend-confirmation and forgot-password kept in PostgreSQL so every
 * process agrees. Both request endpoints answer the same whether or not the e-mail exists.
 */
import { msg } from "../../../core/i18n/message";
import { insertAuthEmailRequest, lastHourByEmail, lastHourByIp } from "../../../db/queries/auth-email-requests";
import { consumeResetToken, consumeVerifyToken, insertEmailToken, retireResetTokens, validTokenUser } from "../../../db/queries/email-tokens";
import { revokeUserSessions } from "../../../db/queries/sessions";
import { activeUserByEmail, markEmailVerified, setPasswordVerified } from "../../../db/queries/users";
import { hashPassword, type UserRow } from "./auth.server";
import { hashToken, randomToken } from "../platform/crypto.server";
import { sessionsEnded } from "../platform/session-events";
import { db } from "../platform/db.server";
import { appLink, queueEmail, renderEmail } from "../notify/email.server";
import { RateLimitedError, ValidationError } from "../platform/errors.server";
import { logger } from "../platform/logger.server";

/** Verification link lifetime. */
export const VERIFY_TTL_HOURS = 24;
/** Password-reset link lifetime. */
export const RESET_TTL_HOURS = 1;
/** Minimum seconds between two resend/forgot requests for the same e-mail (PRODUCT.md §9: 60 s). */
export const EMAIL_COOLDOWN_SECONDS = 60;
/** Requests per e-mail per hour (per kind). */
export const EMAIL_HOURLY_LIMIT = 5;
/** Requests per IP per hour (per kind). */
export const IP_HOURLY_LIMIT = 30;

type Purpose = "verify" | "reset";

/** Creates a single-use token for a user; a new reset token invalidates the earlier unused ones. */
export async function createEmailToken(userId: string, purpose: Purpose): Promise<string> {
  const token = randomToken();
  const hours = purpose === "verify" ? VERIFY_TTL_HOURS : RESET_TTL_HOURS;
  const sql = db();
  if (purpose === "reset") await retireResetTokens(sql, userId);
  await insertEmailToken(sql, userId, purpose, hashToken(token), hours);
  return token;
}

/** The user a still-valid (unused, unexpired) token belongs to, without consuming it; null otherwise. */
export async function peekEmailToken(token: string, purpose: Purpose): Promise<string | null> {
  return (await validTokenUser(db(), hashToken(token), purpose)) ?? null;
}

/** Sends (queues) the verification e-mail with a fresh 24 h link. */
export async function sendVerificationEmail(user: Pick<UserRow, "id" | "email" | "first_name" | "preferences">): Promise<void> {
  const token = await createEmailToken(user.id, "verify");
  const link = appLink(`/auth/verify?token=${encodeURIComponent(token)}`);
  const mail = renderEmail("verify", user.preferences?.language, { name: user.first_name || user.email, link });
  await queueEmail({ userId: user.id, kind: "verify", to: user.email, ...mail });
}

/** Sends (queues) the password-reset e-mail with a fresh 1 h link. */
export async function sendResetEmail(user: Pick<UserRow, "id" | "email" | "first_name" | "preferences">): Promise<void> {
  const token = await createEmailToken(user.id, "reset");
  const link = appLink(`/auth/reset-password?token=${encodeURIComponent(token)}`);
  const mail = renderEmail("reset", user.preferences?.language, { name: user.first_name || user.email, link });
  await queueEmail({ userId: user.id, kind: "reset", to: user.email, ...mail });
}

/**
 * Records a resend/forgot request and enforces the limits (the request is counted even for unknown
 * e-mails, so the answer never reveals whether an account exists).
 * @throws RateLimitedError with a translatable message (and `retryAfter` seconds).
 */
export async function checkEmailRequestLimit(kind: "resend" | "forgot", email: string, ip: string | null): Promise<void> {
  const sql = db();
  await sql.begin(async (tx) => {
    // Serialise requests for the same e-mail so two processes cannot both pass the cooldown.
    await tx`select pg_advisory_xact_lock(hashtext(${`${kind}:${email}`}))`;
    const last = await lastHourByEmail(tx, kind, email);
    if (last && last.ago !== null && last.ago < EMAIL_COOLDOWN_SECONDS) {
      const wait = Math.max(1, Math.ceil(EMAIL_COOLDOWN_SECONDS - last.ago));
      throw new RateLimitedError(msg("api:email.cooldown", { seconds: wait }), { retryAfter: wait });
    }
    if (last && last.hour >= EMAIL_HOURLY_LIMIT) throw new RateLimitedError(msg("api:email.hourlyLimit"), { retryAfter: 3600 });
    if (ip) {
      if ((await lastHourByIp(tx, kind, ip)) >= IP_HOURLY_LIMIT) throw new RateLimitedError(msg("api:email.ipLimit"), { retryAfter: 3600 });
    }
    await insertAuthEmailRequest(tx, kind, email, ip);
  });
}

/** The client IP as Express resolved it (`req.ip` under TRUST_PROXY), if any: client-ip.server.ts. */
export { clientIp } from "../platform/client-ip.server";

/**
 * Runs the e-mail work of a resend/forgot request after the answer (issue 24: a known e-mail's answer
 * took 64 ms against 22 ms for an unknown one, since only the known one created a token and queued a
 * message before answering). The caller's answer then costs the same for both: the rate-limit check
 * only. A failure is logged (warn), never shown: the answer is the same whatever happens.
 */
function afterAnswer(kind: "resend" | "forgot", work: () => Promise<void>): void {
  setImmediate(() => {
    work().catch((err: unknown) => logger().warn({ err: err instanceof Error ? err.message : String(err), kind }, "pedido de e-mail falhou em segundo plano"));
  });
}

/**
 * Resend-confirmation: same outcome, and the same time, whether the e-mail exists; sends only to
 * unverified, active users, after the answer (`afterAnswer`).
 * @throws RateLimitedError (see `checkEmailRequestLimit`).
 */
export async function requestVerificationResend(email: string, ip: string | null): Promise<void> {
  await checkEmailRequestLimit("resend", email, ip);
  afterAnswer("resend", async () => {
    const user = await activeUserByEmail(db(), email);
    if (user && !user.email_verified_at) await sendVerificationEmail(user);
  });
}

/**
 * Forgot-password: same outcome, and the same time, whether the e-mail exists; the reset link goes to
 * active users after the answer (`afterAnswer`).
 * @throws RateLimitedError (see `checkEmailRequestLimit`).
 */
export async function requestPasswordReset(email: string, ip: string | null): Promise<void> {
  await checkEmailRequestLimit("forgot", email, ip);
  afterAnswer("forgot", async () => {
    const user = await activeUserByEmail(db(), email);
    if (user) await sendResetEmail(user);
  });
}

/** Outcome of following a verification link (the /auth?error= codes of PRODUCT.md §2). */
export type VerifyOutcome = "verified" | "token_missing" | "token_invalid" | "verification_failed";

/** Consumes a verification token and marks the e-mail verified. */
export async function verifyEmailToken(token: string | null): Promise<VerifyOutcome> {
  if (!token) return "token_missing";
  try {
    return await db().begin(async (tx) => {
      const userId = await consumeVerifyToken(tx, hashToken(token));
      if (!userId) return "token_invalid" as const;
      await markEmailVerified(tx, userId);
      return "verified" as const;
    });
  } catch {
    return "verification_failed";
  }
}

/**
 * Consumes a reset token, sets the new password, marks the e-mail verified (the link proved it) and
 * revokes every session of the user (their open price streams end once it commits: issue 24).
 * @throws ValidationError when the link is invalid, used or expired.
 */
export async function resetPassword(token: string, password: string): Promise<string> {
  const hash = await hashPassword(password);
  const userId = (await db().begin(async (tx) => {
    const userId = await consumeResetToken(tx, hashToken(token));
    if (!userId) throw new ValidationError(msg("api:email.resetLinkExpired"));
    await setPasswordVerified(tx, userId, hash);
    await revokeUserSessions(tx, userId);
    return userId;
  })) as string;
  sessionsEnded({ userId });
  return userId;
}

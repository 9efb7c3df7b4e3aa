/**
 * Accounts and sessions (DESIGN.md §7): argon2id password hashes; sessions stored in the database
 * by token hash, revocable; the browser gets an httpOnly cookie, the JSON API also accepts the same
 * token as `Authorization: Bearer` or `x-session`.
 */
import { createCookie, redirect } from "@remix-run/node";
import argon2 from "argon2";
import type postgres from "postgres";
import { msg, type Msg } from "../../../core/i18n/message";
import { sessionsEnded } from "../platform/session-events";
import { insertSession, revokeSessionByToken, sessionUser } from "../../../db/queries/sessions";
import { emailExists, insertUser, setTermsAccepted, touchLastLogin, userByEmail, userRowById, type UserRow } from "../../../db/queries/users";
import { translateMsg } from "~/i18n";
import { config } from "../platform/config.server";
import { clientIp } from "../platform/client-ip.server";
import { hashToken, randomToken } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { connectionAccount } from "../../../db/queries/broker-connections";
import { createTrialLicence, latestLicence, licenceView } from "./licence.server";
import { beginLoginAttempt, clearLoginFailures } from "./login-throttle.server";
import { ConflictError, ForbiddenError, UnauthorizedError } from "../platform/errors.server";

/** Message for a correct login whose e-mail is not verified yet (PRODUCT.md §8). */
export const NEEDS_VERIFICATION: Msg = msg("api:auth.needsVerification");
/** Its Portuguese text: 'Email não verificado. Verifique sua caixa de entrada para confirmar sua conta.' */
export const NEEDS_VERIFICATION_MESSAGE = translateMsg(NEEDS_VERIFICATION, "pt");

/** How long the registration → terms → done steps may take (the signed registration cookie's life). */
export const REGISTRATION_MINUTES = 60;

/** Long-lived ("lembrar de mim") session length. */
export const REMEMBER_DAYS = 30;
/** Session length when "remember me" is unchecked (the cookie itself ends with the browser). */
export const SHORT_SESSION_HOURS = 12;

/** A `users` row (its home: db/queries/users.ts). */
export type { UserRow };

function sessionCookie() {
  const c = config();
  return createCookie("__session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: c.NODE_ENV === "production",
    secrets: [c.SESSION_SECRET ?? "dev-only-secret"],
  });
}

function registrationCookie() {
  const c = config();
  return createCookie("__registration", {
    httpOnly: true,
    sameSite: "lax",
    path: "/auth",
    maxAge: REGISTRATION_MINUTES * 60,
    secure: c.NODE_ENV === "production",
    secrets: [c.SESSION_SECRET ?? "dev-only-secret"],
  });
}

/** A registration in progress, as carried by the signed `__registration` cookie. */
export interface PendingRegistration {
  userId: string;
  email: string;
}

/**
 * Set-Cookie for the signed, httpOnly, short-lived registration cookie: it is what tells /auth/contract
 * and /auth/done which registration they complete (the `email` query is only displayed, never trusted).
 */
export async function registrationCookieHeader(reg: PendingRegistration): Promise<string> {
  const exp = Date.now() + REGISTRATION_MINUTES * 60_000;
  return registrationCookie().serialize({ u: reg.userId, e: reg.email, exp });
}

/** The registration in progress of a request (signature and expiry checked), or null. */
export async function pendingRegistration(request: Request): Promise<PendingRegistration | null> {
  const v = (await registrationCookie().parse(request.headers.get("cookie"))) as { u?: unknown; e?: unknown; exp?: unknown } | null;
  if (!v || typeof v.u !== "string" || typeof v.e !== "string" || typeof v.exp !== "number" || v.exp < Date.now()) return null;
  return { userId: v.u, email: v.e };
}

/** Set-Cookie that ends the registration cookie. */
export function clearRegistrationCookie(): Promise<string> {
  return registrationCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}

/** Records that the user accepted the terms (version `version`, now). */
export async function acceptTerms(userId: string, version: string): Promise<void> {
  await setTermsAccepted(db(), userId, version);
}

/** A user by id (the owner's own row). */
export async function userById(userId: string): Promise<UserRow | null> {
  return (await userRowById(db(), userId)) ?? null;
}

/** Hashes a password with argon2id. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

/** Creates a user (+ trial licence). @throws ConflictError when the e-mail is taken. */
export async function createUser(input: {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  role?: "user" | "admin";
  verified?: boolean;
}): Promise<UserRow> {
  const sql = db();
  const hash = await hashPassword(input.password);
  return sql.begin(async (tx) => {
    if (await emailExists(tx, input.email)) throw new ConflictError(msg("api:auth.emailTaken"));
    const user = await insertUser(tx, {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      passwordHash: hash,
      role: input.role ?? "user",
      verifiedAt: input.verified ? new Date() : null,
    });
    if ((input.role ?? "user") === "user") await createTrialLicence(tx, user.id);
    return user;
  }) as Promise<UserRow>;
}

/** A hash of a random password, verified against on unknown e-mails so they take as long as known ones. */
let dummyHash: Promise<string> | undefined;
function dummyPasswordHash(): Promise<string> {
  if (!dummyHash) {
    dummyHash = hashPassword(randomToken());
    dummyHash.catch(() => (dummyHash = undefined)); // retried by the next login
  }
  return dummyHash;
}

/**
 * Checks credentials, behind the login throttle (login-throttle.server.ts: a lock per (account,
 * source), a progressive delay per account): the attempt is counted first, a correct password ends the
 * streak of its source and the account's. An unknown e-mail costs one argon2 verify against a dummy
 * hash, so the answer's timing does not tell whether the account exists.
 * @param email trimmed and lower-cased (the login schemas do it)
 * @param ip the client address (`clientIp(request)`), null when unknown
 * @throws RateLimitedError 429 while this source is locked out of the account (the password is not checked);
 *   UnauthorizedError 'Email ou senha inválidos.' (same message whether the e-mail exists or not);
 *   ForbiddenError 403 for a deactivated account. Callers must still refuse a session when
 *   `email_verified_at` is null (see `NEEDS_VERIFICATION_MESSAGE`).
 */
export async function verifyLogin(email: string, password: string, ip: string | null): Promise<UserRow> {
  const dummy = dummyPasswordHash(); // started on the first login of the process, known e-mail or not
  await beginLoginAttempt(email, ip);
  const user = await userByEmail(db(), email);
  const hash = user?.password_hash ?? (await dummy);
  const ok = (await argon2.verify(hash, password).catch(() => false)) && user !== undefined;
  if (!user || !ok) throw new UnauthorizedError(msg("api:auth.invalidCredentials"));
  await clearLoginFailures(email, ip);
  if (!user.is_active) throw new ForbiddenError(msg("api:auth.accountDisabled"));
  return user;
}

/** Opens a session; returns the raw token (shown once to the client) and its Set-Cookie header. */
export async function createSession(userId: string, request: Request, remember = true) {
  const token = randomToken();
  const ms = remember ? REMEMBER_DAYS * 86_400_000 : SHORT_SESSION_HOURS * 3_600_000;
  const expires = new Date(Date.now() + ms);
  await insertSession(db(), {
    userId,
    tokenHash: hashToken(token),
    remember,
    expires,
    userAgent: request.headers.get("user-agent")?.slice(0, 300) ?? null,
    ip: clientIp(request),
  });
  await touchLastLogin(db(), userId);
  const setCookie = await sessionCookie().serialize(token, remember ? { expires } : {});
  return { token, setCookie };
}

/** The raw session token of a request: bearer header, `x-session` header, or the signed cookie. */
export async function sessionToken(request: Request): Promise<string | null> {
  const auth = request.headers.get("authorization");
  if (auth?.toLowerCase().startsWith("bearer ")) return auth.slice(7).trim() || null;
  const x = request.headers.get("x-session");
  if (x) return x.trim() || null;
  const value = await sessionCookie().parse(request.headers.get("cookie"));
  return typeof value === "string" && value ? value : null;
}

/** The logged-in user of a request, or null. */
export async function getUser(request: Request): Promise<UserRow | null> {
  const token = await sessionToken(request);
  if (!token) return null;
  return (await sessionUser(db(), hashToken(token))) ?? null;
}

/** For pages: the user, or a redirect to /auth. */
export async function requireUser(request: Request): Promise<UserRow> {
  const user = await getUser(request);
  if (!user) throw redirect("/auth");
  return user;
}

/**
 * For the JSON API: the user, or 401 'Token inválido ou expirado' (PRODUCT.md §8) with `session`:
 * "missing" when the request carried no session at all, "invalid" when its token is unknown, revoked or
 * expired (the broker wizard says 'Sua sessão expirou…' for the first, 'Sessão inválida/expirada…' for the second).
 */
export async function requireApiUser(request: Request): Promise<UserRow> {
  const user = await getUser(request);
  if (!user) throw new UnauthorizedError(msg("api:auth.sessionExpired"), { session: (await sessionToken(request)) ? "invalid" : "missing" });
  return user;
}

/** Revokes the request's session (cookie and token alike); returns the Set-Cookie that clears the cookie. */
export async function logout(request: Request): Promise<string> {
  const token = await sessionToken(request);
  if (token) {
    const tokenHash = hashToken(token);
    await revokeSessionByToken(db(), tokenHash);
    sessionsEnded({ tokenHash }); // its open price streams end now (issue 24)
  }
  return sessionCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}

/** Broker connection summary for the user object. */
async function oandaAuthOf(sql: postgres.Sql, userId: string) {
  const c = await connectionAccount(sql, userId);
  return c
    ? { isConnected: true, environment: c.environment, accountId: c.account_id, accountName: c.account_alias ?? `Conta ${c.account_id}` }
    : { isConnected: false, environment: null, accountId: null, accountName: null };
}

/** The user as the API returns it (PRODUCT.md §3 User); never includes the password hash. */
export async function publicUser(user: UserRow) {
  const sql = db();
  const [lic, oandaAuth] = await Promise.all([latestLicence(sql, user.id), oandaAuthOf(sql, user.id)]);
  return {
    _id: user.id,
    id: user.id,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    isActive: user.is_active,
    role: user.role,
    preferences: user.preferences,
    subscriptionStatus: user.subscription_status,
    stripeCustomerId: user.stripe_customer_id,
    stripeSubscriptionId: user.stripe_subscription_id,
    ...licenceView(user.role, user.subscription_status, lic),
    oandaAuth,
    emailVerifiedAt: user.email_verified_at?.toISOString() ?? null,
    createdAt: user.created_at.toISOString(),
    lastLogin: user.last_login_at?.toISOString() ?? null,
  };
}
export type PublicUser = Awaited<ReturnType<typeof publicUser>>;

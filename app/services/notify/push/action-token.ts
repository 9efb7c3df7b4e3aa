/**
 * One-tap action tokens of a push ("Pausar IA", "Fechar tudo"; ADR 0016): what lets the service worker
 * act from the lock screen without a session. A token is `<claims>.<mac>`, both base64url:
 * claims `{v:1, sub: userId, act: action, jti: uuid, exp: seconds since epoch}`, mac = HMAC-SHA256 of
 * the claims part with a key derived from SESSION_SECRET (HKDF, its own label: never the cookie key).
 * It allows exactly one action for one user until `exp`; single use is enforced by the caller storing
 * the jti (push_action_tokens_used). Pure: the key and the time are passed in (unit-tested).
 */
import { createHmac, hkdfSync, randomUUID, timingSafeEqual } from "node:crypto";
import { PUSH_ACTIONS, type PushAction } from "~/lib/push";

/** How long a token is good for, in seconds (15 minutes). */
export const ACTION_TOKEN_TTL_SEC = 15 * 60;

/** The claims of a valid token. */
export interface ActionClaims {
  v: 1;
  /** The user the action is for. */
  sub: string;
  act: PushAction;
  /** Unique id, consumed once. */
  jti: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

/** Why a token is refused. */
export type TokenRefusal = "malformed" | "forged" | "expired" | "wrongAction";

/** The signing key for action tokens, derived from the server secret (32 bytes). */
export function actionKey(serverSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", serverSecret, "forex-ia", "push-action-token v1", 32));
}

function mac(key: Buffer, claimsPart: string): Buffer {
  return createHmac("sha256", key).update(claimsPart).digest();
}

/**
 * Signs a token for one action of one user.
 * @param nowMs current time in ms (the token expires `ttlSec` later)
 */
export function signActionToken(key: Buffer, userId: string, act: PushAction, nowMs: number, ttlSec = ACTION_TOKEN_TTL_SEC): string {
  const claims: ActionClaims = { v: 1, sub: userId, act, jti: randomUUID(), exp: Math.floor(nowMs / 1000) + ttlSec };
  const part = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${part}.${mac(key, part).toString("base64url")}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a token for `action` at `nowMs`: signature first (constant-time), then the claims' shape,
 * the expiry and the action. Does not check single use (the caller consumes the jti).
 */
export function verifyActionToken(key: Buffer, token: string, action: string, nowMs: number): { ok: true; claims: ActionClaims } | { ok: false; reason: TokenRefusal } {
  const parts = token.split(".");
  if (parts.length !== 2 || !parts[0] || !parts[1]) return { ok: false, reason: "malformed" };
  const [part, sig] = parts as [string, string];
  const given = Buffer.from(sig, "base64url");
  const want = mac(key, part);
  if (given.length !== want.length || !timingSafeEqual(given, want)) return { ok: false, reason: "forged" };
  let claims: Partial<ActionClaims>;
  try {
    claims = JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Partial<ActionClaims>;
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (
    claims.v !== 1 ||
    typeof claims.sub !== "string" ||
    !UUID_RE.test(claims.sub) ||
    typeof claims.jti !== "string" ||
    !UUID_RE.test(claims.jti) ||
    typeof claims.exp !== "number" ||
    !PUSH_ACTIONS.includes(claims.act as PushAction)
  )
    return { ok: false, reason: "malformed" };
  if (claims.exp * 1000 <= nowMs) return { ok: false, reason: "expired" };
  if (claims.act !== action) return { ok: false, reason: "wrongAction" };
  return { ok: true, claims: claims as ActionClaims };
}

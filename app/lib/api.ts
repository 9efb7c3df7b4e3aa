/**
 * Browser calls to our JSON API (PRODUCT.md §7, §8): same origin with the session cookie, errors as
 * `ApiCallError` carrying the server's message. The §8 rule: a 401 or 403 clears the session
 * (server cookie revoked, 'auth-changed' event) with the error 'Token inválido ou expirado', and unless
 * the path contains /auth/ or /health the browser goes to /auth after 0.1 s. Other non-OK answers:
 * JSON `message`, else `error`, else the text body, else 'HTTP {status}'. Network failure:
 * 'Connection error - verify server is running'.
 */

/** What kind of failure an `ApiCallError` is (lets screens translate the fixed §8 messages). */
export type ApiErrorCode = "unauthorized" | "network" | "http" | "unavailable";

/** An API failure with the message to show. */
export class ApiCallError extends Error {
  constructor(
    message: string,
    public status: number,
    public code: ApiErrorCode = "http",
    /** On a 401: "missing" when the request carried no session, "invalid" when it was refused (app/services/identity/auth.server.ts `requireApiUser`). */
    public session?: "missing" | "invalid",
  ) {
    super(message);
  }
}

/** Delay before leaving for /auth after a session failure (PRODUCT.md §9). */
export const AUTH_REDIRECT_DELAY_MS = 100;
/** The §8 messages (Portuguese, literal). */
export const UNAUTHORIZED_MESSAGE = "Token inválido ou expirado";
export const NETWORK_MESSAGE = "Connection error - verify server is running";

/** Whether a 401/403 on this path should send the browser to /auth (PRODUCT.md §8: not for /auth/ or /health). */
export function redirectsOnAuthFailure(path: string): boolean {
  return !path.includes("/auth/") && !path.includes("/health");
}

let leaving = false;

/** Clears the session (server cookie, 'auth-changed' event) and, when `redirect`, goes to /auth after 0.1 s. */
export function clearSession(redirect = true): void {
  if (typeof window === "undefined") return;
  window.dispatchEvent(new Event("auth-changed"));
  const cleared = fetch("/api/auth/logout", { method: "POST", credentials: "include" }).catch(() => {}); // logout failure ignored (§8)
  if (!redirect || leaving || window.location.pathname.startsWith("/auth")) return;
  leaving = true;
  void cleared.finally(() => {
    window.setTimeout(() => window.location.assign("/auth"), AUTH_REDIRECT_DELAY_MS);
  });
}

/** Calls our API; returns the parsed JSON or throws `ApiCallError`. */
export async function apiFetch<T = Record<string, unknown>>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      credentials: "include",
      headers: init.body === undefined ? { Accept: "application/json" } : { "Content-Type": "application/json", Accept: "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    throw new ApiCallError(NETWORK_MESSAGE, 0, "network");
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const obj = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  if (res.status === 401 || res.status === 403) {
    clearSession(redirectsOnAuthFailure(path));
    const session = obj.session === "missing" || obj.session === "invalid" ? obj.session : undefined;
    throw new ApiCallError(UNAUTHORIZED_MESSAGE, res.status, "unauthorized", session);
  }
  if (!res.ok) {
    const message =
      (typeof obj.message === "string" && obj.message) || (typeof obj.error === "string" && obj.error) || (body === null && text.trim() ? text.slice(0, 200) : "") || `HTTP ${res.status}`;
    throw new ApiCallError(message, res.status);
  }
  return obj as T;
}

/** Catalogue keys of the fixed §8 messages ("unavailable": a multi-path call none of whose paths answered, api-multi.ts). */
const FIXED_MESSAGE_KEYS = { network: "common:errors.network", unauthorized: "common:errors.unauthorized", unavailable: "common:errors.allEndpoints" } as const;

/** The message of any thrown value (translated by `t` for the fixed §8 messages), or the fallback. */
export function errorMessage(err: unknown, fallback: string, t?: (key: string) => string): string {
  if (err instanceof ApiCallError && t && err.code !== "http") return t(FIXED_MESSAGE_KEYS[err.code]);
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}

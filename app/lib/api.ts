/**
 * Browser calls to our JSON API (PRODUCT.md §7, §8): same origin with the session cookie, errors as
 * `ApiCallError` carrying the server's `message`. A 401 (or a 403 while the session is no longer valid)
 * clears the session and goes to /auth after 0.1 s.
 */

/** An API failure with the message to show (server `message`, else `error`, else 'HTTP {status}'). */
export class ApiCallError extends Error {
  constructor(
    message: string,
    public status: number,
  ) {
    super(message);
  }
}

/** Delay before leaving for /auth after a session failure (PRODUCT.md §9). */
export const AUTH_REDIRECT_DELAY_MS = 100;

let leaving = false;

/** Clears the session cookie on the server and goes to /auth after 0.1 s. */
export function endSessionAndGoToAuth(): void {
  if (leaving || typeof window === "undefined") return;
  leaving = true;
  void fetch("/api/auth/logout", { method: "POST", credentials: "include" })
    .catch(() => {})
    .finally(() => {
      window.setTimeout(() => window.location.assign("/auth"), AUTH_REDIRECT_DELAY_MS);
    });
}

async function sessionStillValid(): Promise<boolean> {
  try {
    const res = await fetch("/api/auth/me", { credentials: "include" });
    return res.ok;
  } catch {
    return true;
  }
}

/** Calls our API; returns the parsed JSON or throws `ApiCallError` with a Portuguese message. */
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
    throw new ApiCallError("Connection error - verify server is running", 0);
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const obj = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  if (!res.ok) {
    const message =
      (typeof obj.message === "string" && obj.message) || (typeof obj.error === "string" && obj.error) || text.slice(0, 200) || `HTTP ${res.status}`;
    if (res.status === 401 || (res.status === 403 && !(await sessionStillValid()))) {
      endSessionAndGoToAuth();
      throw new ApiCallError(res.status === 401 ? "Token inválido ou expirado" : message, res.status);
    }
    throw new ApiCallError(message, res.status);
  }
  return obj as T;
}

/** The message of any thrown value, or the fallback. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}

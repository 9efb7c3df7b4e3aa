/**
 * Multi-path calls (PRODUCT.md §7 "Multi-path calls try each path in order", §8 "Multi-path calls throw
 * the last error or 'All endpoints unavailable'"): the paths are tried in order with `apiFetch` and the
 * first answer wins. A 401/403 stops at once (the session is gone, whatever the path). A path this
 * server does not have (404, 405) counts as unavailable; another failure (5xx, network) is remembered and
 * the next path tried. When every path failed: the last real failure, or 'All endpoints unavailable'
 * (`ALL_ENDPOINTS_UNAVAILABLE`, status 0, code "unavailable": `errorMessage` shows common:errors.allEndpoints) when every path was unavailable.
 */
import { ApiCallError, apiFetch } from "./api";

/** The §8 message when no path of a multi-path call answered (common:errors.allEndpoints). */
export const ALL_ENDPOINTS_UNAVAILABLE = "All endpoints unavailable";

/** Calls `paths` in order (same `init` each time); returns the first answer. @throws ApiCallError as above */
export async function apiFetchFirst<T = Record<string, unknown>>(paths: readonly string[], init: { method?: string; body?: unknown } = {}): Promise<T> {
  let last: ApiCallError | null = null;
  for (const path of paths) {
    try {
      return await apiFetch<T>(path, init);
    } catch (err) {
      if (!(err instanceof ApiCallError) || err.code === "unauthorized") throw err;
      if (err.status !== 404 && err.status !== 405) last = err;
    }
  }
  throw last ?? new ApiCallError(ALL_ENDPOINTS_UNAVAILABLE, 0, "unavailable");
}

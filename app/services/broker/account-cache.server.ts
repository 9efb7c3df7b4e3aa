/**
 * A short server-side cache of the broker's account state for the screens (issue 8 item 7: the
 * account summary and the open trades hit the broker on every request; issue 13: a page view should
 * not wait on the broker). Each key is read from the broker at most once per ACCOUNT_STATE_TTL_MS,
 * and concurrent requests share one broker call (lru-cache's fetch). A value older than that but
 * younger than ACCOUNT_STATE_STALE_MS is served at once while one refresh runs in the background
 * (stale-while-revalidate), unless the caller asks for a fresh value (`stale: false`: the open
 * trades, which change outside our books when a trade is placed at the broker directly). Trading
 * code (the tick, closes, the reconcile) never reads through it; a manual close, a one-off tick and
 * every trade event of the reconcile (the price hub hears them from every process) forget the
 * user's entries, so the next screen read is fresh. Failures are not cached.
 */
import { LRUCache } from "lru-cache";

/** How long a screen may show the same account state without a refresh: far below a human's refresh, far above a burst. */
export const ACCOUNT_STATE_TTL_MS = 1000;
/** How old a value may be served while its refresh runs (balance and margin between two refreshes of the screens, 15 s). */
export const ACCOUNT_STATE_STALE_MS = 30_000;

type Loader = () => Promise<object>;

/** The last good value of each key, kept up to ACCOUNT_STATE_STALE_MS for stale-while-revalidate. */
const last = new LRUCache<string, object>({ max: 10_000, ttl: ACCOUNT_STATE_STALE_MS });

const cache = new LRUCache<string, object, Loader>({
  max: 10_000,
  ttl: ACCOUNT_STATE_TTL_MS,
  fetchMethod: async (key, _stale, { context, signal }) => {
    const value = await context();
    // A forget during the read aborts it: its (older) value must not become the stale one.
    if (!signal.aborted) last.set(key, value);
    return value;
  },
});

/**
 * The value of `key` (e.g. `${userId}:${accountId}:summary`, starting with the user's id), loaded
 * with `load` when absent or older than ACCOUNT_STATE_TTL_MS; with `stale` (default) a value up to
 * ACCOUNT_STATE_STALE_MS old is answered without waiting while the reload runs. @throws what `load`
 * throws (when there is no value to answer)
 */
export async function cachedAccountState<T extends object>(key: string, load: () => Promise<T>, opts: { stale?: boolean } = {}): Promise<T> {
  const fresh = cache.get(key);
  if (fresh) return fresh as T;
  const reload = cache.fetch(key, { context: load }) as Promise<T>;
  const previous = opts.stale === false ? undefined : last.get(key);
  if (previous) {
    reload.catch(() => {}); // a failed background refresh: the next read tries again
    return previous as T;
  }
  return reload;
}

/** Forgets a user's cached account state (after a manual close or a trade event, so the screens read it fresh). */
export function forgetAccountState(userId: string): void {
  for (const c of [cache, last] as LRUCache<string, object, unknown>[]) for (const key of [...c.keys()]) if (key.startsWith(`${userId}:`)) c.delete(key);
}

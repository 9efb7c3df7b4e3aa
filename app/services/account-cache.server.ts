/**
 * A short server-side cache of the broker's account state for the screens (issue 8 item 7: the
 * account summary and the open trades hit the broker on every request). Each key is read from the
 * broker at most once per ACCOUNT_STATE_TTL_MS, and concurrent requests share one broker call
 * (lru-cache's fetch). Trading code (the tick, closes, the reconcile) never reads through it; a
 * manual close forgets the user's entries so the next screen read is fresh. Failures are not cached.
 */
import { LRUCache } from "lru-cache";

/** How long a screen may show the same account state: far below a human's refresh, far above a burst. */
export const ACCOUNT_STATE_TTL_MS = 1000;

type Loader = () => Promise<object>;

const cache = new LRUCache<string, object, Loader>({
  max: 10_000,
  ttl: ACCOUNT_STATE_TTL_MS,
  fetchMethod: (_key, _stale, { context }) => context(),
});

/**
 * The value of `key` (e.g. `${userId}:${accountId}:summary`, starting with the user's id), loaded
 * with `load` when absent or older than ACCOUNT_STATE_TTL_MS. @throws what `load` throws
 */
export async function cachedAccountState<T extends object>(key: string, load: () => Promise<T>): Promise<T> {
  return (await cache.fetch(key, { context: load })) as T;
}

/** Forgets a user's cached account state (after a manual close, so the screens read it fresh). */
export function forgetAccountState(userId: string): void {
  for (const key of [...cache.keys()]) if (key.startsWith(`${userId}:`)) cache.delete(key);
}

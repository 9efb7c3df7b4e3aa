/**
 * The setup half of bench/bots.bench.ts (and bench/web.bench.ts): N users with a connected simulator
 * practice account and an active bot, in the product's own tables. Loaded through Vite's SSR loader by
 * the benches (the services import `import.meta.glob`, which only Vite resolves), so it must not be run
 * by plain Node.
 *
 * Per batch of `BATCH` users: one multi-row `insert into users` (one argon2 hash shared by all,
 * `hashPassword`) and their trial licences (`createTrialLicence`) in one transaction; then the broker
 * accounts (`newBrokerUsers`, one call per batch) and, for each user:
 * - the first `viaServices` users overall (default all): the product's services, at most `concurrency`
 *   at once: `connectBroker` (checks the account at the broker, stores the token encrypted, reconciles)
 *   and `startBot(userId, interval)`;
 * - the others (the shortcut, to set up 20,000 bots in about a minute instead of 15–30): the rows those
 *   two services write, one multi-row statement per table and batch — `broker_connections` with the token
 *   encrypted by the product's own `encryptSecret` (the format `connectBroker` stores), the account's
 *   alias, currency and last transaction id as the simulator reports them (a new account: CREATE +
 *   TRANSFER_FUNDS, id 2: what connectBroker's reconcile would store) and the broker clock offset
 *   `recordMarketTime` would store; `bots` as `startBot` inserts them (active, due now, as `makeTickDue`).
 *   What is skipped is broker traffic (summary, pricing, transactions since id 2, open trades per user)
 *   and the per-user transactions, not state: the first tick reads instruments, summary and open trades
 *   whichever way the bot was made.
 * With `profiles` (bench:bots' realistic mode, bench/bot-profiles.ts), each user's settings are written
 * through the product's settings storage: the service users by `saveSettings` (the /settings save) and
 * `setEdgeOverride(…, confirmed)` per overridden pair (the "Operar mesmo assim" switch, confirmed); the
 * shortcut users by `upsertSettings` (db/queries/trading-settings.ts, the statement those services end in)
 * with the settings as the product's validation made them; users without a patch or override get no row.
 */
import { hashPassword } from "../app/services/identity/auth.server";
import { startBot } from "../app/services/trading/bot-control.server";
import { connectBroker } from "../app/services/trading/broker-link.server";
import { parseConfig, setConfig } from "../app/services/platform/config.server";
import { encryptSecret } from "../app/services/platform/crypto.server";
import { closeDb, db } from "../app/services/platform/db.server";
import { createTrialLicence } from "../app/services/identity/licence.server";
import { setEdgeOverride } from "../app/services/trading/edge-overrides.server";
import { saveSettings } from "../app/services/trading/settings.server";
import { upsertSettings } from "../db/queries/trading-settings";
import type { BotProfile } from "./bot-profiles";

/** Users per batch of inserts. */
export const BATCH = 500;

/** A simulator practice account made for one bench user. */
export interface BrokerUser {
  token: string;
  accountId: string;
  /** Account alias as the broker's summary reports it (the simulator's "Primary"). */
  alias: string | null;
  /** Account currency (the simulator's default USD). */
  currency: string;
  /** The account's last transaction id at creation (2: CREATE + TRANSFER_FUNDS). */
  lastTransactionID: string;
  /** Broker (simulator) time minus real time when the account was made, ms (`market_clock_offset_ms`). */
  clockOffsetMs: number;
}

/** Runs `fn` over `items` with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

/**
 * Creates `bots` users (`bench-bot-<i>@teste.com`, password Senha123), each with a simulator practice
 * account (`newBrokerUsers(n)`, called once per batch) connected and an active bot ticking every
 * `intervalSec`; the first `viaServices` (default all) through the product's services, the others by the
 * documented shortcut (module docstring); `profiles[i]` (optional) is user i's settings, written as the
 * module docstring says. `env` is the product's configuration (DATABASE_URL,
 * ENCRYPTION_KEY, OANDA_* URLs…); the pool is closed at the end. Returns the user ids, in email order.
 */
export async function createBots(opts: {
  env: Record<string, string>;
  bots: number;
  intervalSec: number;
  concurrency: number;
  viaServices?: number;
  newBrokerUsers: (n: number) => Promise<BrokerUser[]>;
  profiles?: BotProfile[];
  onProgress?: (made: number) => void;
}): Promise<string[]> {
  setConfig(parseConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", ...opts.env }));
  const viaServices = opts.viaServices ?? opts.bots;
  const all: string[] = [];
  try {
    const hash = await hashPassword("Senha123");
    for (let b = 0; b < opts.bots; b += BATCH) {
      const n = Math.min(BATCH, opts.bots - b);
      const rows = Array.from({ length: n }, (_, i) => ({
        email: `bench-bot-${b + i}@teste.com`,
        first_name: "Bench",
        last_name: `Bot ${b + i}`,
        password_hash: hash,
        email_verified_at: new Date(),
      }));
      const ids = await db().begin(async (tx) => {
        const inserted = await tx<{ id: string; email: string }[]>`insert into users ${tx(rows)} returning id, email`;
        // `returning` order is not guaranteed: keep the email order (web.bench logs in as bench-bot-<i>).
        const byEmail = new Map(inserted.map((r) => [r.email, r.id]));
        const ordered = rows.map((r) => byEmail.get(r.email)!);
        await Promise.all(ordered.map((id) => createTrialLicence(tx, id)));
        return ordered;
      });
      const brokers = await opts.newBrokerUsers(n);
      const cut = Math.max(0, Math.min(n, viaServices - b));
      await pool(ids.slice(0, cut), opts.concurrency, async (userId, i) => {
        const broker = brokers[i]!;
        await connectBroker(userId, { token: broker.token, environment: "practice", accountId: broker.accountId });
        const profile = opts.profiles?.[b + i];
        if (profile?.patch) await saveSettings(userId, profile.patch);
        for (const instrument of profile?.overrides ?? []) await setEdgeOverride(userId, { instrument, enable: true, confirmed: true });
        await startBot(userId, opts.intervalSec);
      });
      const direct = ids.slice(cut).map((userId, i) => ({ userId, broker: brokers[cut + i]! }));
      if (direct.length) {
        await db().begin(async (tx) => {
          const conns = direct.map(({ userId, broker }) => ({
            user_id: userId,
            environment: "practice",
            account_id: broker.accountId,
            account_alias: broker.alias,
            account_currency: broker.currency,
            token_encrypted: encryptSecret(broker.token),
            last_transaction_id: broker.lastTransactionID,
            market_clock_offset_ms: Math.round(broker.clockOffsetMs),
          }));
          await tx`insert into broker_connections ${tx(conns)}`;
          const bots = direct.map(({ userId }) => ({ user_id: userId, is_active: true, interval_sec: opts.intervalSec, last_started_at: new Date() }));
          await tx`insert into bots ${tx(bots)}`;
          await Promise.all(
            direct.map(({ userId }, i) => {
              const profile = opts.profiles?.[b + cut + i];
              return profile && (profile.patch || profile.overrides.length) ? upsertSettings(tx, userId, profile.settings) : undefined;
            }),
          );
        });
      }
      all.push(...ids);
      opts.onProgress?.(all.length);
    }
    return all;
  } finally {
    await closeDb();
  }
}

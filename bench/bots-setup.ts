/**
 * The setup half of bench/bots.bench.ts: N users with a connected simulator practice account and an
 * active bot, made by the product's own services and tables. Loaded through Vite's SSR loader by the
 * bench (the services import `import.meta.glob`, which only Vite resolves), so it must not be run by
 * plain Node. Batches of `BATCH` users: one multi-row `insert into users` (one argon2 hash shared by
 * all, `hashPassword`) and their trial licences (`createTrialLicence`) in one transaction; then, with
 * at most `concurrency` at once, `connectBroker` (checks the account at the broker, stores the token
 * encrypted, reconciles) and `startBot(userId, interval)`.
 */
import { hashPassword } from "../app/services/auth.server";
import { startBot } from "../app/services/bot.server";
import { connectBroker } from "../app/services/broker.server";
import { parseConfig, setConfig } from "../app/services/config.server";
import { closeDb, db } from "../app/services/db.server";
import { createTrialLicence } from "../app/services/licence.server";

/** Users per batch of inserts. */
export const BATCH = 500;

/** Runs `fn` over `items` with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/**
 * Creates `bots` users, each with a simulator practice account (`newBrokerUser`) connected and an
 * active bot ticking every `intervalSec`. `env` is the product's configuration (DATABASE_URL,
 * ENCRYPTION_KEY, OANDA_* URLs…); the pool is closed at the end. Returns the user ids.
 */
export async function createBots(opts: {
  env: Record<string, string>;
  bots: number;
  intervalSec: number;
  concurrency: number;
  newBrokerUser: () => { token: string; accountId: string };
  onProgress?: (made: number) => void;
}): Promise<string[]> {
  setConfig(parseConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", ...opts.env }));
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
        const inserted = await tx<{ id: string }[]>`insert into users ${tx(rows)} returning id`;
        await Promise.all(inserted.map((r) => createTrialLicence(tx, r.id)));
        return inserted.map((r) => r.id);
      });
      await pool(ids, opts.concurrency, async (userId) => {
        const broker = opts.newBrokerUser();
        await connectBroker(userId, { token: broker.token, environment: "practice", accountId: broker.accountId });
        await startBot(userId, opts.intervalSec);
      });
      all.push(...ids);
      opts.onProgress?.(all.length);
    }
    return all;
  } finally {
    await closeDb();
  }
}

/**
 * Services on a real database, in process (no HTTP, no build): "disconnect stops the bot" and "the
 * settings save" are one transaction each (ADR 0009). Atomicity is shown by making the second
 * statement fail (a trigger) and finding the first one rolled back.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { disconnectBroker } from "../../app/services/trading/broker-link.server";
import { ValidationError } from "../../app/services/platform/errors.server";
import { getSettings, saveSettings, saveSettingsAndPreferences } from "../../app/services/trading/settings.server";
import { inProcessApp } from "../setup/in-process";

const testDb = inProcessApp();

/** A user with a connected broker account and an active bot. */
async function connectedUserWithActiveBot(): Promise<string> {
  const [u] = await testDb().sql<{ id: string }[]>`insert into users (email, password_hash, email_verified_at)
    values (${`u${Math.random().toString(36).slice(2)}@example.com`}, 'x', now()) returning id`;
  const userId = u!.id;
  await testDb().sql`insert into broker_connections (user_id, environment, account_id, token_encrypted)
    values (${userId}, 'practice', ${`101-004-1-${Math.random().toString(36).slice(2, 8)}`}, 'v1:a:b:c')`;
  await testDb().sql`insert into bots (user_id, is_active, interval_sec, last_started_at) values (${userId}, true, 60, now())`;
  return userId;
}

const botOf = async (userId: string) =>
  (await testDb().sql<{ is_active: boolean; last_stop_reason: string | null; last_stopped_at: Date | null }[]>`
    select is_active, last_stop_reason, last_stopped_at from bots where user_id = ${userId}`)[0]!;
const connectionCount = async (userId: string) => (await testDb().sql`select 1 from broker_connections where user_id = ${userId}`).length;

describe("disconnectBroker: the bot stops and the connection goes, together", () => {
  beforeEach(async () => {
    await testDb().sql`drop trigger if exists refuse_delete on broker_connections`;
  });

  it("stops the active bot (reason manual) and deletes the connection", async () => {
    const userId = await connectedUserWithActiveBot();
    expect(await disconnectBroker(userId)).toBe(true);
    const bot = await botOf(userId);
    expect(bot.is_active).toBe(false);
    expect(bot.last_stop_reason).toBe("manual");
    expect(bot.last_stopped_at).toBeInstanceOf(Date);
    expect(await connectionCount(userId)).toBe(0);
  });

  it("is atomic: when removing the connection fails, the bot keeps running", async () => {
    const userId = await connectedUserWithActiveBot();
    await testDb().sql.unsafe(`create or replace function refuse_delete() returns trigger language plpgsql as $$
      begin raise exception 'delete refused by the test'; end $$`);
    await testDb().sql.unsafe(`create trigger refuse_delete before delete on broker_connections for each row execute function refuse_delete()`);
    await expect(disconnectBroker(userId)).rejects.toThrow(/delete refused by the test/);
    const bot = await botOf(userId);
    expect(bot.is_active).toBe(true);
    expect(bot.last_stop_reason).toBeNull();
    expect(await connectionCount(userId)).toBe(1);
  });

  it("answers false without a connection", async () => {
    const userId = await connectedUserWithActiveBot();
    await testDb().sql`delete from broker_connections where user_id = ${userId}`;
    expect(await disconnectBroker(userId)).toBe(false);
  });
});

describe("settings save: one transaction", () => {
  it("saves trading settings and preferences together", async () => {
    const userId = await connectedUserWithActiveBot();
    const saved = await saveSettingsAndPreferences(userId, {
      settings: (current) => ({ maxDailyTrades: current.maxDailyTrades === 7 ? 8 : 7 }),
      preferences: { language: "en" },
    });
    expect(saved.maxDailyTrades).toBe(7);
    expect((await getSettings(userId)).maxDailyTrades).toBe(7);
    const [u] = await testDb().sql<{ preferences: { language: string } }[]>`select preferences from users where id = ${userId}`;
    expect(u!.preferences.language).toBe("en");
  });

  it("saves neither when the preferences are invalid (ValidationError naming the field)", async () => {
    const userId = await connectedUserWithActiveBot();
    const err = await saveSettingsAndPreferences(userId, { settings: { maxDailyTrades: 7 }, preferences: { language: "xx" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).extra.field).toBe("language");
    expect(await testDb().sql`select 1 from trading_settings where user_id = ${userId}`).toHaveLength(0);
    const [u] = await testDb().sql<{ preferences: { language: string } }[]>`select preferences from users where id = ${userId}`;
    expect(u!.preferences.language).toBe("pt");
  });

  it("saveSettings rejects an out-of-range value and keeps the stored settings", async () => {
    const userId = await connectedUserWithActiveBot();
    await saveSettings(userId, { settings: { maxDailyTrades: 9 } });
    const err = await saveSettings(userId, { maxDailyTrades: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).status).toBe(400);
    expect((await getSettings(userId)).maxDailyTrades).toBe(9);
  });
});

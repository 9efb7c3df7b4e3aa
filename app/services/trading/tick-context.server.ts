/**
 * What a tick needs from our tables before the broker, in ONE statement per batch of ticks (issue 13,
 * ADR 0032): licence validity, the user's timezone, the bot's row, the trading settings, the broker
 * connection, the stored account state and the risk counters' trades. The statement is the read model
 * db/queries/tick-context.ts `tickContextRows`; this module batches it and builds the context.
 */
import type { StoredAccountState } from "../broker/account-state.server";
import { parseAccountState } from "../broker/account-state.server";
import type { BrokerConnectionRow } from "../broker/broker.server";
import { db } from "../platform/db.server";
import { joinedLicence, licenceView } from "../identity/licence.server";
import { settingsFromRow } from "./settings.server";
import { StatementBatcher } from "../platform/sql-batch.server";
import type { TradingSettings } from "../../../core/settings";
import type { CounterPreRead } from "./counter-trades.server";
import { tickContextRows, type TickBotRow, type TickContextRow } from "../../../db/queries/tick-context";

export type { TickBotRow } from "../../../db/queries/tick-context";

/** What a tick needs from our tables before the broker (`tickContext`); not core's TickContext, which the executor gets. */
export interface StoredTickContext {
  valid: boolean;
  timezone?: string;
  bot?: TickBotRow;
  settings: TradingSettings;
  conn?: BrokerConnectionRow;
  stored?: StoredAccountState;
  counters?: CounterPreRead;
}

/** How far back (before the broker's "now") the context read takes the trades of the risk counters: a trading day starts within 24 h of now. */
const COUNTER_WINDOW_HOURS = 48;

/**
 * What a tick needs from our tables before the broker, in ONE statement (issue 13: ≤ 10 SQL per
 * tick): licence validity (wall clock: a subscription is real time; the newest licence, as
 * latestLicence reads it), the user's timezone, the bot's row (absent when it has none), the trading
 * settings (defaults filled in), the broker connection, the stored account state
 * (account-state.server.ts) and the trades the risk counters need over the last
 * COUNTER_WINDOW_HOURS of the broker's clock (used when this tick's sync records nothing; see
 * counterTrades).
 */
export async function tickContext(userId: string): Promise<StoredTickContext> {
  const [u] = await tickContextRows(db(), [userId], COUNTER_WINDOW_HOURS);
  return contextFromRow(userId, u);
}

/**
 * The tick contexts of the ticks running at once, one statement per batch (ADR 0032): the ticks a
 * claim starts read their contexts together, each after taking its own lock. Same read as
 * `tickContext`.
 */
export const contextBatcher = new StatementBatcher<string, StoredTickContext>({
  many: async (userIds) => {
    const rows = new Map((await tickContextRows(db(), userIds, COUNTER_WINDOW_HOURS)).map((r) => [r.user_id, r]));
    return userIds.map((id) => contextFromRow(id, rows.get(id)));
  },
  one: tickContext,
  maxBatch: 200,
});

/** A tick's context from its row (`tickContextRows`). */
function contextFromRow(userId: string, u: TickContextRow | undefined): StoredTickContext {
  if (!u) return { valid: false, settings: settingsFromRow(undefined) };
  const valid = licenceView(u.role, u.subscription_status, joinedLicence(u)).hasValidLicense;
  const bot = u.has_bot
    ? {
        is_active: u.is_active,
        peak_balance: u.peak_balance,
        peak_at: u.peak_at,
        drawdown_stopped: u.drawdown_stopped === true,
        last_started_at: u.last_started_at,
        manage_only_since: u.manage_only_since,
        manage_only_reason: u.manage_only_reason,
      }
    : undefined;
  const conn: BrokerConnectionRow | undefined = u.has_connection
    ? {
        user_id: userId,
        environment: u.c_environment,
        account_id: u.c_account_id,
        account_alias: u.c_account_alias,
        account_currency: u.c_account_currency,
        token_encrypted: u.c_token_encrypted,
        last_transaction_id: u.c_last_transaction_id,
        market_clock_offset_ms: u.c_market_clock_offset_ms,
        status: u.c_status,
        connected_at: u.c_connected_at,
      }
    : undefined;
  const stored = parseAccountState(u.account_state);
  const counters: CounterPreRead | undefined =
    conn && u.counter_since
      ? {
          since: u.counter_since,
          rows: (u.counter_trades ?? []).map((r) => ({
            id: String(r.id),
            openTime: new Date(r.open_time),
            closeTime: r.close_time ? new Date(r.close_time) : null,
            realizedPL: r.realized_pl,
            status: r.status,
          })),
        }
      : undefined;
  return {
    valid,
    ...(u.timezone ? { timezone: u.timezone } : {}),
    ...(bot ? { bot } : {}),
    settings: settingsFromRow(u.settings),
    ...(conn ? { conn } : {}),
    ...(stored ? { stored } : {}),
    ...(counters ? { counters } : {}),
  };
}

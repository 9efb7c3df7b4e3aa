/**
 * What a tick needs from our tables before the broker, in ONE statement per batch of ticks (issue 13,
 * ADR 0032): licence validity, the user's timezone, the bot's row, the trading settings, the broker
 * connection, the stored account state and the risk counters' trades.
 */
import type { StoredAccountState } from "../broker/account-state.server";
import { ACCOUNT_STATE_JSON, parseAccountState } from "../broker/account-state.server";
import type { BrokerConnectionRow } from "../broker/broker.server";
import { db } from "../platform/db.server";
import { joinedLicence, LICENCE_JOIN_COLUMNS, licenceView, type JoinedLicenceColumns } from "../billing/licence.server";
import { settingsFromRow } from "./settings.server";
import { StatementBatcher } from "../platform/sql-batch.server";
import type { TradingSettings } from "../../../core/settings";
import type { BotRow } from "./bot-status.server";
import { counterTradeRowsSql, type CounterPreRead } from "./counter-trades.server";

export type TickBotRow = Pick<BotRow, "is_active" | "peak_balance" | "peak_at" | "last_started_at" | "manage_only_since" | "manage_only_reason"> & { drawdown_stopped: boolean };

interface TickContextRow extends TickBotRow, JoinedLicenceColumns {
  role: string;
  subscription_status: string;
  timezone: string | null;
  has_bot: boolean;
  settings: unknown;
  has_connection: boolean;
  c_environment: BrokerConnectionRow["environment"];
  c_account_id: string;
  c_account_alias: string | null;
  c_account_currency: string | null;
  c_token_encrypted: string;
  c_last_transaction_id: string | null;
  c_market_clock_offset_ms: string;
  c_status: string;
  c_connected_at: Date;
  account_state: unknown;
  counter_since: Date | null;
  counter_trades: { id: string; open_time: string; close_time: string | null; realized_pl: string | null; status: string }[] | null;
}

/** What a tick needs from our tables before the broker (`tickContext`). */
export interface TickContext {
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
export async function tickContext(userId: string): Promise<TickContext> {
  const [u] = await tickContextRows([userId]);
  return contextFromRow(userId, u);
}

/**
 * The tick contexts of the ticks running at once, one statement per batch (ADR 0032): the ticks a
 * claim starts read their contexts together, each after taking its own lock. Same read as
 * `tickContext`.
 */
export const contextBatcher = new StatementBatcher<string, TickContext>({
  many: async (userIds) => {
    const rows = new Map((await tickContextRows(userIds)).map((r) => [r.user_id, r]));
    return userIds.map((id) => contextFromRow(id, rows.get(id)));
  },
  one: tickContext,
  maxBatch: 200,
});

/** The context rows of `userIds` (absent: no such user); see `tickContext`. */
function tickContextRows(userIds: string[]) {
  return db()<(TickContextRow & { user_id: string })[]>`
    select u.id::text as user_id, u.role, u.subscription_status, u.preferences->>'timezone' as timezone, b.user_id is not null as has_bot,
      b.is_active, b.peak_balance::text as peak_balance, b.peak_at, b.drawdown_stop is not null as drawdown_stopped, b.last_started_at, b.manage_only_since, b.manage_only_reason, s.settings,
      ${db().unsafe(LICENCE_JOIN_COLUMNS)},
      c.user_id is not null as has_connection, c.environment as c_environment, c.account_id as c_account_id,
      c.account_alias as c_account_alias, c.account_currency as c_account_currency, c.token_encrypted as c_token_encrypted,
      c.last_transaction_id as c_last_transaction_id, c.market_clock_offset_ms::text as c_market_clock_offset_ms,
      c.status as c_status, c.connected_at as c_connected_at,
      ${db().unsafe(ACCOUNT_STATE_JSON)} as account_state,
      ct.since as counter_since, ct.rows as counter_trades
    from users u
      left join bots b on b.user_id = u.id
      left join trading_settings s on s.user_id = u.id
      left join lateral (select * from licenses where user_id = u.id order by end_date desc limit 1) l on true
      left join broker_connections c on c.user_id = u.id
      left join lateral (
        select w.since, (
          select json_agg(json_build_object('id', t.id, 'open_time', t.open_time, 'close_time', t.close_time, 'realized_pl', t.realized_pl, 'status', t.status))
          from ${counterTradeRowsSql(db()`u.id`, db()`c.account_id`, db()`w.since`)} t
        ) as rows
        from (select now() + make_interval(secs => c.market_clock_offset_ms / 1000.0) - make_interval(hours => ${COUNTER_WINDOW_HOURS}) as since) w
        where c.user_id is not null
      ) ct on true
    where u.id = any(${userIds}::uuid[])`;
}

/** A tick's context from its row (`tickContextRows`). */
function contextFromRow(userId: string, u: TickContextRow | undefined): TickContext {
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

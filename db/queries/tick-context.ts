/**
 * A read model over several tables: what a bot tick needs from our tables before the broker, in ONE
 * statement for a batch of ticks (issue 13, ADR 0032; batched by app/services/trading/tick-context.server.ts
 * `contextBatcher`): the user (role, subscription, time zone), the bot's row, the trading settings, the
 * newest licence, the broker connection, the stored account state and the risk counters' trades.
 */
import type { Environment } from "../../core/broker/port";
import { ACCOUNT_STATE_JSON } from "./account-states";
import type { BotRow } from "./bots";
import { LICENCE_JOIN_COLUMNS, type JoinedLicenceColumns } from "./licences";
import type { Sql } from "./sql";
import { counterTradeRowsSql } from "./trades";

/** What a tick reads of its bot (`drawdown_stopped`: a max-drawdown stop is recorded). */
export type TickBotRow = Pick<BotRow, "is_active" | "peak_balance" | "peak_at" | "last_started_at" | "manage_only_since" | "manage_only_reason"> & { drawdown_stopped: boolean };

/**
 * One user's context row: `has_bot` / `has_connection` say whether the bot's and the connection's columns
 * are there (`c_` the connection's), `account_state` the stored state as jsonb, `counter_since` and
 * `counter_trades` the risk counters' trades read (JSON rows, times as ISO text; null without a connection).
 */
export interface TickContextRow extends TickBotRow, JoinedLicenceColumns {
  user_id: string;
  role: string;
  subscription_status: string;
  timezone: string | null;
  has_bot: boolean;
  settings: unknown;
  has_connection: boolean;
  c_environment: Environment;
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

/**
 * The context rows of `userIds` (a user that does not exist has none), in one statement. The risk
 * counters' trades are those `counterTradeRowsSql` reads since `counterWindowHours` hours before now on
 * the broker's clock (now + the connection's clock offset).
 */
export function tickContextRows(sql: Sql, userIds: readonly string[], counterWindowHours: number) {
  return sql<TickContextRow[]>`
    select u.id::text as user_id, u.role, u.subscription_status, u.preferences->>'timezone' as timezone, b.user_id is not null as has_bot,
      b.is_active, b.peak_balance::text as peak_balance, b.peak_at, b.drawdown_stop is not null as drawdown_stopped, b.last_started_at, b.manage_only_since, b.manage_only_reason, s.settings,
      ${sql.unsafe(LICENCE_JOIN_COLUMNS)},
      c.user_id is not null as has_connection, c.environment as c_environment, c.account_id as c_account_id,
      c.account_alias as c_account_alias, c.account_currency as c_account_currency, c.token_encrypted as c_token_encrypted,
      c.last_transaction_id as c_last_transaction_id, c.market_clock_offset_ms::text as c_market_clock_offset_ms,
      c.status as c_status, c.connected_at as c_connected_at,
      ${sql.unsafe(ACCOUNT_STATE_JSON)} as account_state,
      ct.since as counter_since, ct.rows as counter_trades
    from users u
      left join bots b on b.user_id = u.id
      left join trading_settings s on s.user_id = u.id
      left join lateral (select * from licenses where user_id = u.id order by end_date desc limit 1) l on true
      left join broker_connections c on c.user_id = u.id
      left join lateral (
        select w.since, (
          select json_agg(json_build_object('id', t.id, 'open_time', t.open_time, 'close_time', t.close_time, 'realized_pl', t.realized_pl, 'status', t.status))
          from ${counterTradeRowsSql(sql, sql`u.id`, sql`c.account_id`, sql`w.since`)} t
        ) as rows
        from (select now() + make_interval(secs => c.market_clock_offset_ms / 1000.0) - make_interval(hours => ${counterWindowHours}) as since) w
        where c.user_id is not null
      ) ct on true
    where u.id = any(${userIds as string[]}::uuid[])`;
}

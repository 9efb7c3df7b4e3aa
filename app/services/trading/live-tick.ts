/** The `LiveTick` object: what one live tick reads and produces (app/services/trading/live-tick.server.ts). */
import type { BrokerPort } from "../../../core/broker/port";
import type { TradingSettings } from "../../../core/settings";
import type { StoredAccountState } from "../broker/account-state.server";
import type { BrokerConnectionRow } from "../broker/broker-connection";
import type { CounterPreRead } from "./counter-trades.server";
import type { TickBotRow } from "./tick-context.server";

/**
 * One live tick: what it reads (the user, the connection, the broker client bound to the tick's
 * deadline, the settings, the licence, the bot's row, the context read's stored account state and
 * counter trades, whether it was forced by run-once) and what it produces for the runner to store.
 */
export interface LiveTick {
  readonly userId: string;
  readonly conn: BrokerConnectionRow;
  /** The user's broker client, bound to `signal` (tick-signal.server.ts brokerWithSignal). */
  readonly client: BrokerPort;
  readonly settings: TradingSettings;
  /** Licence validity now, and the user's IANA timezone (unset: the default). */
  readonly licence: { valid: boolean; timezone?: string };
  /** The bot's row (undefined: never started; a forced tick may run without one). */
  readonly bot: Pick<TickBotRow, "peak_balance" | "peak_at" | "last_started_at" | "manage_only_reason"> | undefined;
  readonly stored: StoredAccountState | undefined;
  readonly counters: CounterPreRead | undefined;
  /** Run-once: works on the broker's current state (syncs first, ADR 0027). */
  readonly forced: boolean;
  /** Aborts at the tick's deadline or when the user's lock is lost. */
  readonly signal: AbortSignal;
  /** Produced: the account NAV read (account currency, decimal string), for the high-water mark. */
  nav?: string;
  /** Produced: the tick's instant on the broker's clock. */
  at?: Date;
  /** Produced: when the tick's first sync ran (broker clock), if one ran. */
  syncedAt?: Date;
}

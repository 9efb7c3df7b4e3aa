/**
 * A row of `broker_connections` (one per user): the account the AI trades and the reconcile
 * cursor. Its own module so the reconcile and the broker service can both name it without
 * importing each other.
 */
import type { Environment } from "../../../core/broker/port";

export interface BrokerConnectionRow {
  user_id: string;
  environment: Environment;
  account_id: string;
  account_alias: string | null;
  account_currency: string | null;
  token_encrypted: string;
  last_transaction_id: string | null;
  /** Broker clock minus ours, ms (string: bigint). */
  market_clock_offset_ms: string;
  status: string;
  connected_at: Date;
}

/**
 * A row of `broker_connections` (one per user): the account the AI trades and the reconcile
 * cursor. Its own module so the reconcile and the broker service can both name it without
 * importing each other; the type lives with the table's statements (db/queries/broker-connections.ts).
 */
export type { BrokerConnectionRow } from "../../../db/queries/broker-connections";

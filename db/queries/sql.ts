/**
 * The SQL handle every query function of db/queries takes first (issue 23 item 2): the app's pool
 * (app/services/platform/db.server.ts `db()`) or a transaction of it (`sql.begin`), so a caller runs the
 * statement where its work runs. db/ imports nothing of app/, jobs/ or server/ (only `postgres` and core types).
 */
import type postgres from "postgres";

/** A postgres.js pool or transaction. */
export type Sql = postgres.Sql | postgres.TransactionSql;

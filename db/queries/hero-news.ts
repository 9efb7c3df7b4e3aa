/**
 * A read model for the hero's news card (app/services/trading/calendar.server.ts `heroNews`): the user's
 * stored trading settings and the broker clock offset of their connection, in one statement.
 */
import type { Sql } from "./sql";

/** The user's settings (null: no row) and market clock offset in ms as text (null: no connection); undefined for an unknown user. */
export async function heroNewsContext(sql: Sql, userId: string): Promise<{ settings: unknown; offset: string | null } | undefined> {
  const [row] = await sql<{ settings: unknown; offset: string | null }[]>`
    select s.settings, c.market_clock_offset_ms::text as offset
    from users u left join trading_settings s on s.user_id = u.id left join broker_connections c on c.user_id = u.id
    where u.id = ${userId}`;
  return row;
}

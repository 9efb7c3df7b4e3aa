/**
 * The price hub's choice of broker token (ADR 0017, ADR 0030; issue 23 item 2: its join on `bots` lives
 * here): the broker connections of an environment, with whether their bot is active.
 */
import type { Environment } from "../../core/broker/port";
import type { Sql } from "./sql";

/** A broker connection whose token may open the upstream (the token still encrypted). */
export interface UpstreamCandidate {
  user_id: string;
  account_id: string;
  token_encrypted: string;
}

/**
 * Up to 50 connections of `env`: connected first, then those whose bot is active, then the most
 * recently connected.
 */
export async function upstreamCandidates(sql: Sql, env: Environment): Promise<UpstreamCandidate[]> {
  return sql<UpstreamCandidate[]>`
        select c.user_id, c.account_id, c.token_encrypted from broker_connections c left join bots b on b.user_id = c.user_id
        where c.environment = ${env}
        order by (c.status = 'connected') desc, coalesce(b.is_active, false) desc, c.connected_at desc limit 50`;
}

/**
 * SQL pieces of the `account_states` table (migrations 0018, 0019, 0023) that other statements join in.
 * The account state service's own statements are still in app/services/broker (issue 23 item 2 moves the
 * tables room by room).
 */

/** SQL expression (in a statement naming the user's id `u.id`) giving the user's row as jsonb (null: none), for `parseAccountState`; text for `sql.unsafe`. */
export const ACCOUNT_STATE_JSON = "(select to_jsonb(a) from account_states a where a.user_id = u.id)";

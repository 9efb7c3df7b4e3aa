/**
 * SQL pieces of the `licenses` table (migrations 0001, 0011) that other statements join in: the newest
 * licence's columns, prefixed `lic_`. The licence service's own statements are still in
 * app/services/billing (issue 23 item 2 moves the tables room by room).
 */

/** The newest licence joined into another row with its columns prefixed `lic_` (`LICENCE_JOIN_COLUMNS`; lic_id null: no licence). */
export interface JoinedLicenceColumns {
  lic_id: string | null;
  lic_key: string;
  lic_kind: string;
  lic_plan_id: string | null;
  lic_plan_name: string | null;
  lic_start_date: Date;
  lic_end_date: Date;
  lic_is_active: boolean;
}

/** The select list for `JoinedLicenceColumns` from a licence aliased `l` (the newest one, as `latestLicence` reads it); SQL text for `sql.unsafe`. */
export const LICENCE_JOIN_COLUMNS = `l.id as lic_id, l.key as lic_key, l.kind as lic_kind, l.plan_id as lic_plan_id, l.plan_name as lic_plan_name,
  l.start_date as lic_start_date, l.end_date as lic_end_date, l.is_active as lic_is_active`;

/**
 * Server side of the trade history, shared by the /history page and the /history.csv export so both
 * apply exactly the same filters: reads the filters from the URL, loads the closed trades of the
 * user's connected account for the window the filters need, applies the row rules and filters.
 */
import type { Msg } from "../../core/i18n/message";
import { resolveTimezone } from "../../core/risk/trading-day";
import type { UserRow } from "~/services/identity/auth.server";
import { brokerNow, getConnection } from "~/services/broker/broker.server";
import { tradeHistory } from "~/services/trading/trades.server";
import { applyHistoryFilters, historyWindowDays, normaliseHistoryRows, parseHistoryFilters, type HistoryFilters, type HistoryTrade } from "../lib/history";

/** A history row as the page and the CSV receive it. */
export type HistoryRow = HistoryTrade & { id: string; result: "WIN" | "LOSS" | "BE" | null };

/** What a history request resolves to. */
export interface HistoryData {
  filters: HistoryFilters;
  /** Message of a bad filter (a `history` catalog key, rendered in the reader's language; the request is answered with 400). */
  filterError: Msg | string | null;
  filterErrorField: string | null;
  timezone: string;
  days: number;
  currency: string;
  connected: boolean;
  /** Rows in the window, before filters (the "Y" of "X de Y"). */
  total: number;
  /** Rows after filters and search. */
  rows: HistoryRow[];
}

/** Loads and filters the history for `user` from the request URL (never throws for bad input). */
export async function loadHistory(user: UserRow, url: URL): Promise<HistoryData> {
  const timezone = resolveTimezone(user.preferences?.timezone);
  const parsed = parseHistoryFilters(url.searchParams);
  const filters = parsed.filters;
  const base = {
    filters,
    filterError: parsed.ok ? null : parsed.msg,
    filterErrorField: parsed.ok ? null : parsed.field,
    timezone,
  };
  const conn = await getConnection(user.id);
  const days = historyWindowDays(filters, timezone, brokerNow(conn));
  if (!parsed.ok || !conn) return { ...base, days, currency: conn?.account_currency ?? "USD", connected: !!conn, total: 0, rows: [] };
  const all = normaliseHistoryRows((await tradeHistory(user.id, days)) as HistoryRow[], conn.account_id);
  return { ...base, days, currency: conn.account_currency ?? "USD", connected: true, total: all.length, rows: applyHistoryFilters(all, filters, timezone) };
}

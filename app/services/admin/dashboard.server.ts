/**
 * The admin dashboard's figures (PRODUCT.md §2 Admin panel "Dashboard", §9; issue 10): users (new
 * this week = last 7 days), active / inactive, valid / expired licences, broker-connected share,
 * admins, monthly revenue in USD, the 5 newest users, the language split, the 8 latest logins, and
 * what an operator needs: AI loops on, bots that ticked and decisions in the last hour, bots whose
 * last tick in the last hour failed (broker errors), pg-boss queue depth and dead letters.
 * Soft-deleted users (`deleted_at`) are left out of every figure.
 */
import { monthlyCents } from "../../../core/plans";
import { db } from "../platform/db.server";
import { activePlanPrices, languageSplit, latestLogins, licenceCounts, loopActivity, newestUsers, userCounts, type UserLine } from "../../../db/queries/admin-dashboard";

/**
 * USD per unit of each plan currency, for the revenue card: a FIXED reference rate, not a live
 * quote, so the figure is an estimate (labelled as such on the page). BRL 0.19 ≈ 1 USD = 5.26 BRL
 * and EUR 1.16, rounded from the late-2025 market rates (Banco Central do Brasil PTAX / ECB reference
 * rates of that period). Update here when they drift; a currency missing here is left out of the
 * USD total and reported in `revenue.unconverted`.
 */
export const USD_PER_UNIT: Readonly<Record<string, number>> = Object.freeze({ USD: 1, BRL: 0.19, EUR: 1.16 });

/** The figures the language bars show, in this order (PRODUCT.md §2: pt Português, en English, es Español). */
export const DASHBOARD_LANGUAGES = ["pt", "en", "es"] as const;

/** A user line of the "recent users" and "system activity" lists. */
export interface DashboardUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: "user" | "admin";
  isActive: boolean;
  language: string;
  createdAt: string;
  lastLogin: string | null;
}

/** Everything the dashboard shows. */
export interface DashboardData {
  users: { total: number; newThisWeek: number; active: number; inactive: number; admins: number; brokerConnected: number; brokerConnectedPct: number };
  licences: { valid: number; expired: number };
  revenue: {
    /** Monthly revenue in USD (estimate: fixed rates `USD_PER_UNIT`), two decimals. */
    monthlyUsd: number;
    /** The same in each plan currency, in cents (before conversion). */
    byCurrencyCents: Record<string, number>;
    /** Users counted (active subscription with a licence plan). */
    subscribers: number;
    /** Currencies without a rate (left out of `monthlyUsd`). */
    unconverted: string[];
    rates: Readonly<Record<string, number>>;
  };
  recentUsers: DashboardUser[];
  languages: { language: (typeof DASHBOARD_LANGUAGES)[number]; count: number; pct: number }[];
  activity: DashboardUser[];
  operations: {
    activeLoops: number;
    botsTickedLastHour: number;
    decisionsLastHour: number;
    brokerErrorsLastHour: number;
    /** Jobs waiting or running per queue (dead-letter excluded); null when pg-boss's schema is absent. */
    queues: { name: string; waiting: number; active: number }[] | null;
    queueDepth: number | null;
    deadLetters: number | null;
    failedLastDay: number | null;
  };
  generatedAt: string;
}

const line = (r: UserLine): DashboardUser => ({
  id: r.id,
  email: r.email,
  firstName: r.first_name,
  lastName: r.last_name,
  role: r.role,
  isActive: r.is_active,
  language: r.language ?? "pt",
  createdAt: r.created_at.toISOString(),
  lastLogin: r.last_login_at?.toISOString() ?? null,
});

/** Monthly amount of a plan price: one rule for the dashboard and the subscriptions' MRR (core/plans.ts). */
export { monthlyCents };

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/**
 * Revenue rule (PRODUCT.md §9): the sum of plan prices / 100 over the users with an active
 * subscription whose licence names a plan, per month, converted to USD at `USD_PER_UNIT`.
 */
export function revenueOf(rows: { price_cents: number; currency: string; interval: string; interval_count: number }[]): DashboardData["revenue"] {
  const byCurrencyCents: Record<string, number> = {};
  for (const r of rows) byCurrencyCents[r.currency] = (byCurrencyCents[r.currency] ?? 0) + monthlyCents(r.price_cents, r.interval, r.interval_count);
  let usd = 0;
  const unconverted: string[] = [];
  for (const [cur, cents] of Object.entries(byCurrencyCents)) {
    const rate = USD_PER_UNIT[cur];
    if (rate === undefined) unconverted.push(cur);
    else usd += (cents / 100) * rate;
  }
  for (const k of Object.keys(byCurrencyCents)) byCurrencyCents[k] = Math.round(byCurrencyCents[k]!);
  return { monthlyUsd: Math.round(usd * 100) / 100, byCurrencyCents, subscribers: rows.length, unconverted, rates: USD_PER_UNIT };
}

/** pg-boss 10's queue figures (schema `pgboss`, table `job`, states created/retry/active/…); null when absent. */
async function queueFigures(): Promise<Pick<DashboardData["operations"], "queues" | "queueDepth" | "deadLetters" | "failedLastDay">> {
  const sql = db();
  const [exists] = await sql<{ ok: boolean }[]>`select to_regclass('pgboss.job') is not null as ok`;
  if (!exists?.ok) return { queues: null, queueDepth: null, deadLetters: null, failedLastDay: null };
  const rows = await sql<{ name: string; waiting: number; active: number }[]>`
    select name,
      count(*) filter (where state in ('created', 'retry'))::int as waiting,
      count(*) filter (where state = 'active')::int as active
    from pgboss.job where state in ('created', 'retry', 'active') and name <> 'dead-letter'
    group by name order by name`;
  const [dead] = await sql<{ n: number }[]>`select count(*)::int as n from pgboss.job where name = 'dead-letter' and state in ('created', 'retry', 'active')`;
  const [failed] = await sql<{ n: number }[]>`select count(*)::int as n from pgboss.job where state = 'failed' and completed_on > now() - interval '1 day'`;
  return {
    queues: rows,
    queueDepth: rows.reduce((s, r) => s + r.waiting + r.active, 0),
    deadLetters: dead?.n ?? 0,
    failedLastDay: failed?.n ?? 0,
  };
}

/** All the dashboard's figures, read now. */
export async function getDashboard(): Promise<DashboardData> {
  const sql = db();
  const [counts, licences, revenueRows, recent, langs, activity, ops, queues] = await Promise.all([
    userCounts(sql),
    licenceCounts(sql),
    activePlanPrices(sql),
    newestUsers(sql),
    languageSplit(sql),
    latestLogins(sql),
    loopActivity(sql),
    queueFigures(),
  ]);
  const c = counts[0]!;
  const o = ops[0]!;
  const langTotal = langs.reduce((s, r) => s + r.n, 0);
  return {
    users: {
      total: c.total,
      newThisWeek: c.new_week,
      active: c.active,
      inactive: c.inactive,
      admins: c.admins,
      brokerConnected: c.broker,
      brokerConnectedPct: pct(c.broker, c.total),
    },
    licences: { valid: licences[0]?.valid ?? 0, expired: licences[0]?.expired ?? 0 },
    revenue: revenueOf(revenueRows),
    recentUsers: recent.map(line),
    languages: DASHBOARD_LANGUAGES.map((language) => {
      const count = langs.find((r) => r.language === language)?.n ?? 0;
      return { language, count, pct: pct(count, langTotal) };
    }),
    activity: activity.map(line),
    operations: { activeLoops: o.loops, botsTickedLastHour: o.ticked, decisionsLastHour: o.decisions, brokerErrorsLastHour: o.errors, ...queues },
    generatedAt: new Date().toISOString(),
  };
}

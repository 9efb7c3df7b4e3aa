/**
 * The `plans` table (migrations 0001, 0010): the subscription plans the admin manages, mapped to
 * Stripe products and prices. Its statements live here (issue 23 item 2), with the admin's subscriber
 * counts (paid licences and users on the plan's Stripe price).
 */
import type { Sql } from "./sql";

/** A row of `plans` (migrations 0001, 0010). */
export interface PlanRow {
  id: string;
  name: string;
  description: string;
  price_cents: number;
  currency: string;
  duration_days: number;
  interval: string;
  interval_count: number;
  features: string[];
  is_highlighted: boolean;
  is_active: boolean;
  stripe_product_id: string | null;
  stripe_price_id: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The active plans, cheapest first, then oldest. */
export function activePlanRows(sql: Sql) {
  return sql<PlanRow[]>`
    select * from plans where is_active order by price_cents, created_at, id`;
}

/** Whether any plan exists (active or not). */
export async function anyPlan(sql: Sql): Promise<boolean> {
  const [any] = await sql`select 1 from plans limit 1`;
  return !!any;
}

/** Embedded mode's demo plan's columns (`insertDemoPlan`). */
export interface DemoPlanColumns {
  name: string;
  description: string;
  priceCents: number;
  currency: string;
  durationDays: number;
  interval: string;
  features: string[];
}

/** Inserts the demo plan (one interval, highlighted, active). */
export async function insertDemoPlan(sql: Sql, p: DemoPlanColumns): Promise<void> {
  await sql`
      insert into plans (name, description, price_cents, currency, duration_days, interval, interval_count, features, is_highlighted, is_active)
      values (${p.name}, ${p.description}, ${p.priceCents}, ${p.currency}, ${p.durationDays}, ${p.interval}, 1, ${p.features}, true, true)`;
}

/** Stores a plan's Stripe product and price ids. */
export async function setPlanStripeIds(sql: Sql, planId: string, productId: string, priceId: string): Promise<void> {
  await sql`update plans set stripe_product_id = ${productId}, stripe_price_id = ${priceId}, updated_at = now() where id = ${planId}`;
}

/** An active plan by id. */
export async function activePlanById(sql: Sql, planId: string): Promise<PlanRow | undefined> {
  const [plan] = await sql<PlanRow[]>`select * from plans where id = ${planId} and is_active`;
  return plan;
}

/** A plan by id (any state). */
export async function planById(sql: Sql, planId: string): Promise<PlanRow | undefined> {
  const [plan] = await sql<PlanRow[]>`select * from plans where id = ${planId}`;
  return plan;
}

/** A plan by id, locked `for update` (inside the caller's transaction). */
export async function lockPlan(sql: Sql, planId: string): Promise<PlanRow | undefined> {
  const [before] = await sql<PlanRow[]>`select * from plans where id = ${planId} for update`;
  return before;
}

/** The plan of a Stripe price, if any (the subscription sync). */
export async function planByStripePrice(sql: Sql, priceId: string | null): Promise<{ id: string; name: string } | undefined> {
  const [plan] = await sql<{ id: string; name: string }[]>`select id, name from plans where stripe_price_id = ${priceId}`;
  return plan;
}

/** The names of the plans of these Stripe prices or products (an empty list matches nothing). */
export function plansByStripeIds(sql: Sql, priceIds: string[], productIds: string[]) {
  return sql<{ name: string; stripe_price_id: string | null; stripe_product_id: string | null }[]>`
          select name, stripe_price_id, stripe_product_id from plans
          where stripe_price_id in ${sql(priceIds.length ? priceIds : [""])} or stripe_product_id in ${sql(productIds.length ? productIds : [""])}`;
}

/** Subscribers now, per plan: paid valid licences on it, and users whose current subscription is on its Stripe price. */
const SUBSCRIBER_COUNT = (sql: Sql) => sql`
  (select count(distinct s.user_id)::int from (
     select l.user_id from licenses l where l.plan_id = plans.id and l.kind = 'paid' and l.is_active and l.end_date > now()
     union
     select u.id from users u where plans.stripe_price_id is not null
       and u.subscription_details->'price'->>'id' = plans.stripe_price_id
       and u.subscription_status not in ('canceled', 'incomplete_expired')
   ) s) as subscriber_count`;

/** Every plan with its subscriber count, active first, then cheapest, then oldest. */
export function plansWithSubscribers(sql: Sql) {
  return sql<(PlanRow & { subscriber_count: number })[]>`
    select plans.*, ${SUBSCRIBER_COUNT(sql)} from plans order by is_active desc, price_cents, created_at, id`;
}

/** One plan with its subscriber count. */
export async function planWithSubscribers(sql: Sql, planId: string): Promise<(PlanRow & { subscriber_count: number }) | undefined> {
  const [row] = await sql<(PlanRow & { subscriber_count: number })[]>`select plans.*, ${SUBSCRIBER_COUNT(sql)} from plans where id = ${planId}`;
  return row;
}

/** Clears the highlight of every plan but `keepId` (null: all); returns the cleared rows. */
export function clearPlanHighlights(sql: Sql, keepId: string | null) {
  return sql<PlanRow[]>`
    update plans set is_highlighted = false, updated_at = now()
    where is_highlighted and (${keepId}::uuid is null or id <> ${keepId}::uuid) returning *`;
}

/** A plan's form columns (the admin's create and update). */
export interface PlanColumns {
  name: string;
  description: string;
  price: number;
  currency: string;
  durationDays: number;
  interval: string;
  intervalCount: number;
  features: string[];
  isHighlighted: boolean;
  isActive: boolean;
}

/** Creates a plan by an admin; returns the row. */
export async function insertPlan(sql: Sql, p: PlanColumns, createdBy: string): Promise<PlanRow> {
  const [row] = await sql<PlanRow[]>`
        insert into plans (name, description, price_cents, currency, duration_days, interval, interval_count, features, is_highlighted, is_active, created_by)
        values (${p.name}, ${p.description}, ${p.price}, ${p.currency}, ${p.durationDays}, ${p.interval}, ${p.intervalCount},
                ${p.features}, ${p.isHighlighted}, ${p.isActive}, ${createdBy})
        returning *`;
  return row!;
}

/** Updates every form column of a plan; returns the row after. */
export async function updatePlanColumns(sql: Sql, planId: string, p: PlanColumns): Promise<PlanRow | undefined> {
  const [after] = await sql<PlanRow[]>`
        update plans set name = ${p.name}, description = ${p.description}, price_cents = ${p.price}, currency = ${p.currency},
          duration_days = ${p.durationDays}, interval = ${p.interval}, interval_count = ${p.intervalCount}, features = ${p.features},
          is_highlighted = ${p.isHighlighted}, is_active = ${p.isActive}, updated_at = now()
        where id = ${planId} returning *`;
  return after;
}

/** How many subscribers a plan has or had: its paid licences (any state) plus the users whose subscription is on its Stripe price. */
export async function planSubscriberTotal(sql: Sql, planId: string, stripePriceId: string | null): Promise<number> {
  const [subs] = await sql<{ n: number }[]>`
        select ((select count(*) from licenses where plan_id = ${planId} and kind = 'paid')
              + (select count(*) from users where ${stripePriceId}::text is not null
                   and subscription_details->'price'->>'id' = ${stripePriceId}))::int as n`;
  return subs!.n;
}

/** Archives a plan (inactive, not highlighted); returns the row after. */
export async function archivePlan(sql: Sql, planId: string): Promise<PlanRow | undefined> {
  const [after] = await sql<PlanRow[]>`update plans set is_active = false, is_highlighted = false, updated_at = now() where id = ${planId} returning *`;
  return after;
}

/** Deletes a plan. */
export async function deletePlanRow(sql: Sql, planId: string): Promise<void> {
  await sql`delete from plans where id = ${planId}`;
}

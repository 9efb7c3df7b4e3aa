/**
 * Subscription plans (PRODUCT.md §3 Plan, §7 `GET /api/plans/active`, §9; issue 9): the active plans
 * in the §3 shape, and the demo plan embedded mode seeds on a database without any plan. Plans are
 * admin-created data; their name, description and features are stored as written (Portuguese for
 * the seeded plan), only the formatted price and duration follow the reader.
 */
import { formatPlanInterval, formatPlanPrice, toPlanInterval, type PlanInterval } from "~/lib/plans";
import { db } from "../platform/db.server";

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

/**
 * A plan as the client reads it (PRODUCT.md §3): `_id` and `id`, price in cents, the formatted
 * price (BRL pt-BR, others en-US) and duration ('mês', '3 meses'…, in the reader's language), and
 * `isDefault` on the plan a modal preselects (the first highlighted, else the first). Stripe ids and
 * the creating admin are not part of the public view.
 */
export interface PlanView {
  _id: string;
  id: string;
  name: string;
  description: string;
  price: number;
  currency: string;
  durationDays: number;
  interval: PlanInterval;
  intervalCount: number;
  features: string[];
  isHighlighted: boolean;
  isDefault: boolean;
  formattedPrice: string;
  formattedDuration: string;
}

/** The public view of a plan, in a language (pt, en, es; Portuguese otherwise). */
export function planView(row: PlanRow, language: unknown, isDefault = false): PlanView {
  return {
    _id: row.id,
    id: row.id,
    name: row.name,
    description: row.description,
    price: row.price_cents,
    currency: row.currency,
    durationDays: row.duration_days,
    interval: toPlanInterval(row.interval),
    intervalCount: row.interval_count,
    features: row.features,
    isHighlighted: row.is_highlighted,
    isDefault,
    formattedPrice: formatPlanPrice(row.price_cents, row.currency),
    formattedDuration: formatPlanInterval(row.interval, row.interval_count, language),
  };
}

/** The active plans, cheapest first (then oldest), as `PlanView`s; the default one is marked. */
export async function activePlans(language: unknown): Promise<PlanView[]> {
  const rows = await db()<PlanRow[]>`
    select * from plans where is_active order by price_cents, created_at, id`;
  const def = rows.find((r) => r.is_highlighted) ?? rows[0];
  // One highlighted plan at most on the screens (issue 22 item 11c), even over older rows with two: the default one.
  return rows.map((r) => ({ ...planView(r, language, r === def), isHighlighted: r.is_highlighted && r === def }));
}

/** The plan embedded mode seeds (issue 9: "Mensal", R$ 97,00 a month, highlighted). */
export const DEMO_PLAN = {
  name: "Mensal",
  description: "Acesso completo à Forex IA, renovado todo mês. Cancele quando quiser.",
  priceCents: 9700,
  currency: "BRL",
  durationDays: 30,
  interval: "month" as PlanInterval,
  features: ["Trading automatizado com IA", "Análise de mercado em tempo real", "Gestão de risco avançada", "Notificações push personalizadas"],
};

/** Advisory lock serialising the seed between processes starting at once. */
const SEED_LOCK_ID = 724_009;

/**
 * Creates the demo plan when the database holds no plan at all (active or not), so an admin who
 * removed or replaced it is never overridden. Returns whether it was created.
 */
export async function seedDemoPlan(): Promise<boolean> {
  return db().begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${SEED_LOCK_ID})`;
    const [any] = await tx`select 1 from plans limit 1`;
    if (any) return false;
    const p = DEMO_PLAN;
    await tx`
      insert into plans (name, description, price_cents, currency, duration_days, interval, interval_count, features, is_highlighted, is_active)
      values (${p.name}, ${p.description}, ${p.priceCents}, ${p.currency}, ${p.durationDays}, ${p.interval}, 1, ${p.features}, true, true)`;
    return true;
  });
}

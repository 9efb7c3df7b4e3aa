/**
 * Subscription plans (PRODUCT.md §3 Plan, §7 `GET /api/plans/active`, §9; issue 9): the active plans
 * in the §3 shape, and the demo plan embedded mode seeds on a database without any plan. Plans are
 * admin-created data; their name, description and features are stored as written (Portuguese for
 * the seeded plan), only the formatted price and duration follow the reader.
 */
import { formatPlanInterval, formatPlanPrice, toPlanInterval, type PlanInterval } from "~/lib/plans";
import { db } from "../platform/db.server";
import { activePlanRows, anyPlan, insertDemoPlan, type PlanRow } from "../../../db/queries/plans";

/** A row of `plans` (migrations 0001, 0010): db/queries/plans.ts. */
export type { PlanRow } from "../../../db/queries/plans";

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
  const rows = await activePlanRows(db());
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
    if (await anyPlan(tx)) return false;
    await insertDemoPlan(tx, DEMO_PLAN);
    return true;
  });
}

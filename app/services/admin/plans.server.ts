/**
 * Plans in the admin panel (PRODUCT.md §2 "Plans", §3 Plan, §7 Admin plans; issue 10): list every
 * plan (archived ones too) with its subscriber count, create, edit, delete or archive. Every write is
 * audited in the same transaction as the change (audit.server.ts).
 *
 * Plans map to Stripe products and prices: after a save the plan is synced through the SDK — the
 * product's name, description and `active` follow the plan, and when the amount, currency or interval
 * changed a new price is created (Stripe prices are immutable) and the old one deactivated. When
 * payments are not configured the plan is saved locally and the answer says so (checkout creates the
 * price later through `ensurePlanPrice`); a Stripe failure leaves the local save in place too.
 *
 * A plan that has (or had) subscribers — a paid licence on it, or a user whose current subscription
 * is on its Stripe price — is never hard-deleted: it is archived (`is_active` false, product
 * deactivated at Stripe), so current subscriptions keep running and the books keep their plan.
 */
import type postgres from "postgres";
import type Stripe from "stripe";
import { msg, type Msg } from "../../../core/i18n/message";
import type { PlanInput } from "~/lib/admin-plans";
import { ensurePlanPrice } from "../billing/billing.server";
import { db } from "../platform/db.server";
import { DomainError, InternalError, NotFoundError } from "../platform/errors.server";
import { logger } from "../platform/logger.server";
import { planView, type PlanRow, type PlanView } from "../billing/plans.server";
import { isMissingResource, PaymentsNotConfiguredError, stripe } from "../billing/stripe.server";
import type { AdminActor } from "./access.server";
import { recordAudit } from "./audit.server";
import {
  archivePlan,
  clearPlanHighlights,
  deletePlanRow,
  insertPlan,
  lockPlan,
  planById,
  planSubscriberTotal,
  plansWithSubscribers,
  planWithSubscribers,
  updatePlanColumns,
} from "../../../db/queries/plans";

/** A plan as the admin panel reads it: the public view plus state, Stripe ids and subscribers. */
export interface AdminPlanView extends PlanView {
  isActive: boolean;
  stripeProductId: string | null;
  stripePriceId: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  /** Users subscribed now: a valid paid licence on the plan, or a live subscription on its price. */
  subscriberCount: number;
}

/** What happened at Stripe after a save. */
export interface StripeSyncOutcome {
  status: "synced" | "not_configured" | "failed";
  message: Msg;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The admin view of a row with its subscriber count. */
function adminView(row: PlanRow & { subscriber_count?: number }, language: unknown): AdminPlanView {
  return {
    ...planView(row, language),
    isActive: row.is_active,
    stripeProductId: row.stripe_product_id,
    stripePriceId: row.stripe_price_id,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    subscriberCount: row.subscriber_count ?? 0,
  };
}

/** Every plan, active first, then cheapest, then oldest; with subscriber counts. */
export async function listAdminPlans(language: unknown): Promise<AdminPlanView[]> {
  // Subscribers now, per plan (see `AdminPlanView.subscriberCount`).
  const rows = await plansWithSubscribers(db());
  return rows.map((r) => adminView(r, language));
}

/** One plan in the admin view. @throws NotFoundError */
export async function adminPlan(id: string, language: unknown): Promise<AdminPlanView> {
  if (!UUID.test(id)) throw new NotFoundError(msg("admin-billing:errors.planNotFound"));
  const row = await planWithSubscribers(db(), id);
  if (!row) throw new NotFoundError(msg("admin-billing:errors.planNotFound"));
  return adminView(row, language);
}

/** The audit shape of a plan row (dates as ISO text). */
function auditShape(row: PlanRow): Record<string, unknown> {
  return {
    name: row.name,
    description: row.description,
    price: row.price_cents,
    currency: row.currency,
    durationDays: row.duration_days,
    interval: row.interval,
    intervalCount: row.interval_count,
    features: row.features,
    isHighlighted: row.is_highlighted,
    isActive: row.is_active,
    stripeProductId: row.stripe_product_id,
    stripePriceId: row.stripe_price_id,
  };
}

/**
 * Brings a plan's Stripe product and price in line with the plan (see the module comment): the
 * product's name/description/active are updated; for an active plan `ensurePlanPrice` keeps the
 * price when it still matches, else creates one (and the product when missing) and stores the ids;
 * a replaced price is deactivated, and a price Stripe hands back inactive (an idempotent replay of
 * an earlier price with the same amount) is reactivated.
 * @returns the plan's price id (null for an archived plan without one)
 * @throws Stripe errors
 */
export async function syncPlanToStripe(client: Stripe, plan: PlanRow): Promise<string | null> {
  if (plan.stripe_product_id) {
    try {
      await client.products.update(plan.stripe_product_id, { name: plan.name, description: plan.description, active: plan.is_active });
    } catch (err) {
      if (!isMissingResource(err)) throw err;
    }
  }
  if (!plan.is_active) return plan.stripe_price_id;
  const oldPrice = plan.stripe_price_id;
  const priceId = await ensurePlanPrice(client, plan);
  const price = await client.prices.retrieve(priceId);
  if (!price.active) await client.prices.update(priceId, { active: true });
  if (oldPrice && oldPrice !== priceId) {
    try {
      await client.prices.update(oldPrice, { active: false });
    } catch (err) {
      if (!isMissingResource(err)) throw err;
    }
  }
  return priceId;
}

/** Syncs a saved plan; never throws (the local save stands): the outcome says what happened. */
async function syncAfterSave(planId: string): Promise<StripeSyncOutcome> {
  try {
    const client = await stripe();
    const plan = await planById(db(), planId);
    if (plan) await syncPlanToStripe(client, plan);
    return { status: "synced", message: msg("admin-billing:stripe.synced") };
  } catch (err) {
    if (err instanceof PaymentsNotConfiguredError) return { status: "not_configured", message: msg("admin-billing:stripe.notConfigured") };
    logger().warn({ planId, err: (err as Error).message }, "sincronização do plano com a Stripe falhou");
    return { status: "failed", message: msg("admin-billing:stripe.failed") };
  }
}

/** Turns an unexpected failure into 'Erro ao salvar plano' / 'Erro ao excluir plano' (logged). */
function unexpected(err: unknown, key: "saveFailed" | "deleteFailed"): Error {
  if (err instanceof DomainError || err instanceof Response) return err as Error;
  logger().error({ err: err instanceof Error ? err.stack : String(err) }, `admin: ${key}`);
  return new InternalError(msg(`admin-billing:errors.${key}`));
}

/** Serialises the transactions that highlight a plan (held until commit; taking it twice is harmless). */
async function lockHighlights(tx: postgres.TransactionSql): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtext('plans.is_highlighted'))`;
}

/**
 * At most one highlighted plan (issue 22 item 11c): highlighting a plan clears the others in the same
 * transaction. The advisory lock serialises concurrent highlights, so the later one clears the earlier
 * (without it, two transactions would each miss the other's uncommitted highlight). Each cleared plan
 * is audited as 'plan.update'.
 */
async function clearOtherHighlights(tx: postgres.TransactionSql, actor: AdminActor, keepId: string | null): Promise<void> {
  await lockHighlights(tx);
  const cleared = await clearPlanHighlights(tx, keepId);
  for (const after of cleared) {
    await recordAudit(actor, { action: "plan.update", targetType: "plan", targetId: after.id, before: auditShape({ ...after, is_highlighted: true }), after: auditShape(after) }, tx);
  }
}

/** The result of a save: the plan as stored after the Stripe sync, and the sync's outcome. */
export interface PlanSaveResult {
  plan: AdminPlanView;
  stripe: StripeSyncOutcome;
}

/**
 * Creates a plan (createdBy = the admin), audited as 'plan.create', then syncs it to Stripe.
 * @throws InternalError ('Erro ao salvar plano') on an unexpected failure
 */
export async function createPlan(actor: AdminActor, input: PlanInput, language: unknown): Promise<PlanSaveResult> {
  let id: string;
  try {
    id = await db().begin(async (tx) => {
      if (input.isHighlighted) await clearOtherHighlights(tx, actor, null);
      const row = await insertPlan(tx, { ...input, isActive: input.isActive ?? true }, actor.user.id);
      await recordAudit(actor, { action: "plan.create", targetType: "plan", targetId: row.id, after: auditShape(row) }, tx);
      return row.id;
    });
  } catch (err) {
    throw unexpected(err, "saveFailed");
  }
  const outcome = await syncAfterSave(id);
  return { plan: await adminPlan(id, language), stripe: outcome };
}

/**
 * Updates a plan (every field of the form; `isActive` when given), audited as 'plan.update' with
 * the row before and after, then syncs it to Stripe.
 * @throws NotFoundError for an unknown plan; InternalError ('Erro ao salvar plano') on an unexpected failure
 */
export async function updatePlan(actor: AdminActor, id: string, input: PlanInput, language: unknown): Promise<PlanSaveResult> {
  if (!UUID.test(id)) throw new NotFoundError(msg("admin-billing:errors.planNotFound"));
  try {
    await db().begin(async (tx) => {
      // The highlight lock before the row lock: taken after it, two highlights would deadlock on each other's row.
      if (input.isHighlighted) await lockHighlights(tx);
      const before = await lockPlan(tx, id);
      if (!before) throw new NotFoundError(msg("admin-billing:errors.planNotFound"));
      if (input.isHighlighted) await clearOtherHighlights(tx, actor, id);
      const after = await updatePlanColumns(tx, id, { ...input, isActive: input.isActive ?? before.is_active });
      await recordAudit(actor, { action: "plan.update", targetType: "plan", targetId: id, before: auditShape(before), after: auditShape(after!) }, tx);
    });
  } catch (err) {
    throw unexpected(err, "saveFailed");
  }
  const outcome = await syncAfterSave(id);
  return { plan: await adminPlan(id, language), stripe: outcome };
}

/** The result of DELETE: deleted, or archived because the plan has subscribers. */
export interface PlanDeleteResult {
  outcome: "deleted" | "archived";
  message: Msg;
  stripe: StripeSyncOutcome;
}

/**
 * Deletes a plan without subscribers ('plan.delete'); a plan with subscribers, now or in the books,
 * is archived instead ('plan.archive': is_active false). Either way its Stripe product (and, when
 * deleted, its price) is deactivated.
 * @throws NotFoundError for an unknown plan; InternalError ('Erro ao excluir plano') on an unexpected failure
 */
export async function deletePlan(actor: AdminActor, id: string): Promise<PlanDeleteResult> {
  if (!UUID.test(id)) throw new NotFoundError(msg("admin-billing:errors.planNotFound"));
  let result: { outcome: "deleted" | "archived"; row: PlanRow };
  try {
    result = await db().begin(async (tx) => {
      const before = await lockPlan(tx, id);
      if (!before) throw new NotFoundError(msg("admin-billing:errors.planNotFound"));
      if ((await planSubscriberTotal(tx, id, before.stripe_price_id)) > 0) {
        const after = await archivePlan(tx, id);
        await recordAudit(actor, { action: "plan.archive", targetType: "plan", targetId: id, before: auditShape(before), after: auditShape(after!) }, tx);
        return { outcome: "archived" as const, row: after! };
      }
      await deletePlanRow(tx, id);
      await recordAudit(actor, { action: "plan.delete", targetType: "plan", targetId: id, before: auditShape(before) }, tx);
      return { outcome: "deleted" as const, row: { ...before, is_active: false } };
    });
  } catch (err) {
    throw unexpected(err, "deleteFailed");
  }
  let stripeOutcome: StripeSyncOutcome = { status: "synced", message: msg("admin-billing:stripe.synced") };
  if (result.row.stripe_product_id || result.row.stripe_price_id) {
    try {
      const client = await stripe();
      await syncPlanToStripe(client, result.row);
      if (result.outcome === "deleted" && result.row.stripe_price_id) {
        try {
          await client.prices.update(result.row.stripe_price_id, { active: false });
        } catch (err) {
          if (!isMissingResource(err)) throw err;
        }
      }
    } catch (err) {
      if (err instanceof PaymentsNotConfiguredError) stripeOutcome = { status: "not_configured", message: msg("admin-billing:stripe.notConfiguredDelete") };
      else {
        logger().warn({ planId: id, err: (err as Error).message }, "desativação do produto na Stripe falhou");
        stripeOutcome = { status: "failed", message: msg("admin-billing:stripe.failedDelete") };
      }
    }
  }
  return { outcome: result.outcome, message: msg(result.outcome === "archived" ? "admin-billing:plans.archivedNotice" : "admin-billing:plans.deleted"), stripe: stripeOutcome };
}

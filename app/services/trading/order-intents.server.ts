/**
 * Order intents whose outcome never became known (issue 8 item 10). An intent row is written
 * before the order is sent (ADR 0002); the reconcile settles it from the broker's transactions by
 * client id (fill → filled, cancel → cancelled, reject → rejected). An order that never reached
 * the broker leaves no transaction, so its intent would stay `pending` for good: after
 * UNKNOWN_OUTCOME_MINUTES without a trade it is settled as `failed`. The intent row stays, so the
 * decision is never sent again; should the broker's transactions show a fill after all, the
 * reconcile marks it `filled` (recordOpen updates the intent whatever its status).
 */
import { db } from "../platform/db.server";
import { failUnansweredIntents } from "../../../db/queries/order-intents";

/** Minutes after which a pending order with no trade is taken as never filled: far above any order request's time with retries. */
export const UNKNOWN_OUTCOME_MINUTES = 5;

/** Settles the stale pending intents of every user as `failed`; returns how many. One statement. */
export async function settleUnknownOrders(): Promise<number> {
  return failUnansweredIntents(db(), UNKNOWN_OUTCOME_MINUTES);
}

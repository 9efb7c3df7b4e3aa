/**
 * The read-only support view of one user in the admin panel (PRODUCT.md §7 Admin users; issue 10):
 * the user (deleted ones too), licences and their changes, the bot's state, the last decisions and
 * broker errors, a trade count. Never the broker token.
 */
import { isMsg } from "../../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { botStatus, decisionReason } from "../trading/bot-status.server";
import { db } from "../platform/db.server";
import { recentDecisions } from "../../../db/queries/decisions";
import { latestErrorNotifications } from "../../../db/queries/notifications";
import { tradeSummary } from "../../../db/queries/trades";
import { deletedEmailOf } from "../../../db/queries/users";
import { notificationView } from "../notify/notifications.server";
import { adminUserById } from "./users.server";
import { userLicences } from "../../../db/queries/licences";
import { userLicenceChanges } from "../../../db/queries/license-changes";

/**
 * The read-only support view of one user (GET /api/admin/users/{id}, /admin/usuarios/{id}): the
 * user (deleted ones too), licence history and its changes, the bot's state, the last 20 decisions
 * with their reasons, the last broker errors (connection state, last tick error, error
 * notifications) and a trade count. Never the broker token; texts in `language`.
 * @throws NotFoundError for an unknown id
 */
export async function adminUserDetail(id: string, language: unknown = "pt") {
  const user = await adminUserById(id, { includeDeleted: true });
  const sql = db();
  const [licences, changes, decisions, errors, trades, [deleted], bot] = await Promise.all([
    userLicences(sql, id),
    userLicenceChanges(sql, id),
    recentDecisions(sql, id),
    latestErrorNotifications(sql, id),
    tradeSummary(sql, id),
    deletedEmailOf(sql, id),
    botStatus(id, language),
  ]);
  const now = Date.now();
  return {
    user: { ...user, deletedEmail: deleted?.deleted_email ?? null },
    licences: licences.map((l) => ({
      id: l.id,
      keyPrefix: l.key.slice(0, 8),
      kind: l.kind,
      planName: l.plan_name,
      startDate: l.start_date.toISOString(),
      endDate: l.end_date.toISOString(),
      isActive: l.is_active,
      isValid: l.is_active && l.end_date.getTime() > now,
      fromStripe: l.stripe,
      createdAt: l.created_at.toISOString(),
    })),
    licenceChanges: changes.map((c) => ({
      change: c.change,
      endBefore: c.end_before?.toISOString() ?? null,
      endAfter: c.end_after.toISOString(),
      source: c.source,
      at: c.created_at.toISOString(),
    })),
    bot: {
      isActive: bot.isActive,
      intervalSec: bot.intervalSec,
      manageOnly: bot.manageOnly,
      manageOnlyReason: bot.manageOnlyReason,
      lastStopReason: bot.loopState.lastStopReason,
      lastStopReasonText: bot.loopState.lastStopReasonText,
      lastStartedAt: bot.loopState.lastStartedAt,
      lastStoppedAt: bot.loopState.lastStoppedAt,
      lastTickAt: bot.loopState.lastTickAt,
      lastTickError: bot.loopState.lastTickError,
    },
    decisions: decisions.map((d) => {
      const reason = decisionReason(d);
      return {
        instrument: d.instrument,
        action: d.action,
        side: d.side,
        confidence: d.confidence === null ? null : Number(d.confidence),
        timeframe: d.timeframe,
        executed: d.executed,
        reason: translateMsg(reason, language),
        reasonMsg: isMsg(reason) ? reason : null,
        at: d.created_at.toISOString(),
      };
    }),
    brokerErrors: {
      connectionStatus: user.oandaAuth.status,
      connectionError: user.oandaAuth.lastError,
      lastTickError: bot.loopState.lastTickError,
      notifications: errors.map((n) => notificationView(n, language)),
    },
    trades: { open: trades?.open ?? 0, closed: trades?.closed ?? 0, realizedPL: trades?.realized ?? null },
  };
}
export type AdminUserDetail = Awaited<ReturnType<typeof adminUserDetail>>;

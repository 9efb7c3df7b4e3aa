/**
 * POST /api/oanda-auth/connect {token, accountId, environment} → {success, message, account, rules}
 * (PRODUCT.md §7 Broker). `rules`: the broker-rule check of the account (issue 22, what the AI will
 * and will not do on it), null when it could not be read now (the bot's next sync checks again).
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { apiRoute, readBody } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { clientFor } from "~/services/broker/broker.server";
import { connectBroker } from "~/services/trading/broker-link.server";
import { checkAccountRules, rulesView } from "~/services/trading/broker-rules.server";
import { logger } from "~/services/platform/logger.server";
import { notices } from "~/lib/notifications";
import { notify } from "~/services/notify/notifications.server";
import { connectSchema } from "~/lib/validation";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const input = await readBody(request, connectSchema);
    const summary = await connectBroker(user.id, input);
    await notify(user.id, { type: "success", ...notices.brokerConnected(summary.alias || summary.id, input.environment) });
    const language = user.preferences?.language;
    const rules = await checkAccountRules(user.id, { environment: input.environment, account_id: summary.id }, clientFor(input.token, input.environment), { summary }).then(
      ({ rules }) => rulesView(rules, new Date(), language),
      (err: unknown) => (logger().warn({ userId: user.id, err }, "regras da conta não verificadas ao conectar"), null),
    );
    return { success: true, message: translateMsg(msg("api:broker.connected"), language), account: { id: summary.id, name: summary.alias || `Conta ${summary.id}`, environment: input.environment }, rules };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;

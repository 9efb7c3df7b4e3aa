/** GET /api/oanda-auth/status → {isConnected, account} (PRODUCT.md §7 Broker, §3 Broker connection). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { brokerIdentityStatus, brokerStatus } from "~/services/broker/broker.server";
import { hasValidLicence } from "~/services/identity/licence.server";
import { translateMsg } from "~/i18n";
import { msg } from "../../core/i18n/message";

/**
 * A user without a valid licence learns whether a broker account is connected (id, name, environment)
 * but not its balance, NAV or P&L (PRODUCT.md §6: account data needs a licence): `licenseRequired`
 * and 'Licença necessária para ver os dados da conta.' say why.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    const user = await requireApiUser(request);
    const language = user.preferences?.language;
    if (!(await hasValidLicence(user))) {
      return { success: true, ...(await brokerIdentityStatus(user.id)), licenseRequired: true, message: translateMsg(msg("guard:licence.account"), language) };
    }
    return { success: true, ...(await brokerStatus(user.id, language)) };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;

/**
 * The trader's display-currency rate for the screens and the account API (issue 22 item 11): the
 * user's `preferences.currency` (BRL|USD|EUR, default BRL) against the connected account's currency,
 * at the broker's current mid price (app/lib/display-currency.ts `resolveDisplayRate`), read through
 * the environment's shared quote cache (quote-cache.server.ts, screen mode: no extra broker call while
 * a quote ≤ 5 s old is at hand) and the account's offered-instrument list (account-state.server.ts, cached).
 * Without a rate — the broker does not offer the pair, gives no price, or fails — the answer says
 * `unavailable` with the notice in the reader's language; a rate is never invented.
 */
import { msg } from "../../../core/i18n/message";
import { DEFAULT_DISPLAY_CURRENCY, resolveDisplayRate, toDisplayCurrency, type DisplayRate } from "~/lib/display-currency";
import { translateMsg } from "~/i18n";
import { offeredInstrumentList } from "./account-state.server";
import type { BrokerConnectionRow } from "./broker-connection";
import { clientFor } from "./broker.server";
import { decryptSecret } from "../platform/crypto.server";
import { logger } from "../platform/logger.server";
import { sharedQuotes } from "./quote-cache.server";

/** The notice of a missing rate, in `language`: "Cotação USD/BRL indisponível na corretora: valores em USD". */
export function unavailableNotice(account: string, display: string, language: unknown): string {
  return translateMsg(msg("display-currency:unavailable", { pair: `${account}/${display}`, account }), language);
}

/**
 * The display rate of a user (see the module doc).
 * @param user the session's user (its stored preferences: currency and language)
 * @param conn the user's broker connection (read through its owner); undefined → null (nothing to convert)
 * @param accountCurrency the account's currency as just read from the broker (else the connection's, else USD)
 * @returns the rate, or `unavailable` with its notice; never throws (a broker failure is "unavailable")
 */
export async function displayRateFor(
  user: { id: string; preferences?: { currency?: string; language?: string } | null },
  conn: BrokerConnectionRow | undefined,
  accountCurrency?: string | null,
): Promise<DisplayRate | null> {
  if (!conn) return null;
  const account = (accountCurrency || conn.account_currency || "USD").toUpperCase();
  const display = toDisplayCurrency(user.preferences?.currency ?? DEFAULT_DISPLAY_CURRENCY);
  const language = user.preferences?.language;
  let made: ReturnType<typeof clientFor> | undefined;
  const client = () => (made ??= clientFor(decryptSecret(conn.token_encrypted), conn.environment));
  let offered: string[] = [];
  try {
    const r = await resolveDisplayRate(account, display, {
      offered: async () => (offered = (await offeredInstrumentList(conn, client())).map((i) => i.name)),
      quotes: (instruments) =>
        sharedQuotes(conn.environment, instruments, { accountId: conn.account_id, client: { getPricing: (id, ins) => client().getPricing(id, ins) }, offered }, { screen: true }),
    });
    return { ...r, notice: r.unavailable ? unavailableNotice(r.account, r.display, language) : null };
  } catch (err) {
    logger().warn({ userId: user.id, err: (err as Error).message }, "display-currency: cotação não lida");
    return { account, display, rate: null, instruments: [], unavailable: true, notice: unavailableNotice(account, display, language) };
  }
}

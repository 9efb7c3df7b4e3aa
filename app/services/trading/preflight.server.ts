/**
 * The pre-flight check of a user (issue 12, core/risk/preflight.ts) over their saved settings and
 * connected account, read as the other screens read it (issue 13 "Web under load", ADR 0028): the
 * balance and account currency from account-view.server.ts `screenAccount` (the stored account state,
 * checked at the broker only when it was not looked at within SCREEN_CHECK_MAX_AGE_MS; the hero's
 * own account read, so the hero's view shares it), the offered instruments and their margin rates
 * from the bot's hourly list (account-state.server.ts offeredInstrumentList: memory, else `account_states`),
 * and the prices of the traded and conversion pairs from the environment's shared quotes
 * (quote-cache.server.ts `sharedQuotes`, ≤ QUOTE_TTL_MS old). No broker request per view while all
 * of these are fresh.
 */
import { conversionInstruments } from "../../../core/conversion";
import { instrumentSpec } from "../../../core/instruments";
import { preflight, type PreflightResult } from "../../../core/risk/preflight";
import { resolveInstruments } from "../../../core/settings";
import { screenAccount } from "./account-view.server";
import { offeredInstrumentList } from "../broker/account-state.server";
import { brokerFailure, clientFor, NOT_CONNECTED } from "../broker/broker.server";
import { decryptSecret } from "../platform/crypto.server";
import { ValidationError } from "../platform/errors.server";
import { sharedQuotes } from "../broker/quote-cache.server";
import { getSettings } from "./settings.server";

/**
 * The pre-flight figures for a user's settings and account (money as decimal strings in the account
 * currency).
 * @throws ValidationError (400, 'Nenhuma conta Oanda conectada.') without a broker; the broker's failure as an ApiError
 */
export async function userPreflight(userId: string): Promise<PreflightResult> {
  const [account, settings] = await Promise.all([screenAccount(userId), getSettings(userId)]);
  const { conn } = account;
  if (!conn) throw new ValidationError(NOT_CONNECTED);
  if (!account.read) throw brokerFailure(account.error);
  const { summary } = account.read;
  try {
    const client = clientFor(decryptSecret(conn.token_encrypted), conn.environment);
    const list = await offeredInstrumentList(conn, client);
    const offered = list.map((i) => i.name);
    const instruments = resolveInstruments(settings).filter((i) => offered.includes(i));
    const names = new Set(instruments);
    for (const i of instruments) for (const c of conversionInstruments(instrumentSpec(i).quote, summary.currency, offered)) names.add(c);
    const wanted = [...names].sort();
    const prices = wanted.length ? await sharedQuotes(conn.environment, wanted, { accountId: conn.account_id, client, offered }, { screen: true }) : [];
    return preflight({
      settings,
      balance: summary.balance,
      accountCurrency: summary.currency,
      instruments,
      prices,
      marginRates: Object.fromEntries(list.filter((i) => names.has(i.name)).map((i) => [i.name, i.marginRate])),
    });
  } catch (err) {
    throw brokerFailure(err);
  }
}

/**
 * The pre-flight check of a user (issue 12, core/risk/preflight.ts) over their saved settings and
 * connected account: the account summary through the screens' cache (app/services/account-cache.server.ts,
 * the same entry as GET /api/account/summary, so no extra broker call when it is fresh), the offered
 * instruments and their margin rates from the bot's hourly cache (bot.server.ts offeredInstrumentList),
 * and the prices of the traded and conversion pairs through the same short cache.
 */
import { conversionInstruments } from "../../core/conversion";
import { instrumentSpec } from "../../core/instruments";
import { preflight, type PreflightResult } from "../../core/risk/preflight";
import { resolveInstruments } from "../../core/settings";
import type { AccountSummary } from "../../core/broker/port";
import { cachedAccountState } from "./account-cache.server";
import { offeredInstrumentList } from "./bot.server";
import { brokerFailure, requireBroker } from "./broker.server";
import { getSettings } from "./settings.server";

/**
 * The pre-flight figures for a user's settings and account.
 * @throws ValidationError (400, NOT_CONNECTED) without a broker; the broker's failure as an ApiError
 */
export async function userPreflight(userId: string): Promise<PreflightResult> {
  const { conn, client } = await requireBroker(userId);
  const settings = await getSettings(userId);
  try {
    const [summary, list] = await Promise.all([
      cachedAccountState<AccountSummary>(`${userId}:${conn.account_id}:summary`, () => client.getAccountSummary(conn.account_id)),
      offeredInstrumentList(conn, client),
    ]);
    const offered = list.map((i) => i.name);
    const instruments = resolveInstruments(settings).filter((i) => offered.includes(i));
    const names = new Set(instruments);
    for (const i of instruments) for (const c of conversionInstruments(instrumentSpec(i).quote, summary.currency, offered)) names.add(c);
    const wanted = [...names].sort();
    const prices = wanted.length
      ? (await cachedAccountState(`${userId}:${conn.account_id}:pricing:${wanted.join(",")}`, async () => ({ list: await client.getPricing(conn.account_id, wanted) }))).list
      : [];
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

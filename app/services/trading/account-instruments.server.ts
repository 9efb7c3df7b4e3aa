/**
 * GET /api/account/instruments (PRODUCT.md §7 Account; issue 22): the instruments the connected
 * account offers, as the broker lists them (GET A/instruments, read through the bot's cached list:
 * account-state.server.ts offeredInstrumentList), each with whether the AI trades it under the user's settings
 * (the settings' list, '*' = every pair the product supports: core/settings.ts resolveInstruments).
 */
import { resolveInstruments } from "../../../core/settings";
import { offeredInstrumentList } from "../broker/account-state.server";
import { brokerFailure, requireBroker } from "../broker/broker.server";
import { getSettings } from "./settings.server";

/**
 * The offered instruments of the user's account, sorted by name: name, displayName, type, pip
 * location, display precision, minimum trade size and maximum order units (units), margin rate
 * (decimal string, e.g. "0.0333" = 30:1) and `aiTrades`.
 * @throws ValidationError (400, 'Nenhuma conta Oanda conectada.') without a broker; the broker's failure as its API error
 */
export async function accountInstruments(userId: string) {
  const { conn, client } = await requireBroker(userId);
  const [list, settings] = await Promise.all([offeredInstrumentList(conn, client).catch((err: unknown) => Promise.reject(brokerFailure(err))), getSettings(userId)]);
  const traded = new Set(resolveInstruments(settings));
  const instruments = [...list]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((i) => ({
      name: i.name,
      displayName: i.displayName,
      type: i.type,
      pipLocation: i.pipLocation,
      displayPrecision: i.displayPrecision,
      minimumTradeSize: i.minimumTradeSize,
      maximumOrderUnits: i.maximumOrderUnits,
      marginRate: i.marginRate,
      aiTrades: traded.has(i.name),
    }));
  return { success: true, accountId: conn.account_id, environment: conn.environment, count: instruments.length, instruments };
}

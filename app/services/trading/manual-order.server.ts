/**
 * The user's manual market order (PRODUCT.md §7 Orders: POST /api/orders/market, alias
 * /api/trading/order; issue 22). It goes the AI's way, with the AI's pieces:
 * - under the user's trading lock (user-lock.server.ts), so it never races a tick of the bot;
 * - books synced first (reconcile.server.ts), then the SAME risk gate as the AI's entries
 *   (core/trading/entry-risk.ts entryVerdict over the risk counters of core/trading/counters.ts and
 *   the news calendar): market hours, trading hours, news blackout, spread, open trades, daily trade
 *   count, daily loss limit, max drawdown, cooldown, losing streak; and the leverage/margin cap of the
 *   AI's sizing (core/engine/sizing.ts maxTradeUnits). A refusal is a 409 with the gate's reason;
 * - the SAME order intent and idempotency (order-send.server.ts): the client order id derives from
 *   the user and the idempotency key, so the same key twice sends one order and the second call
 *   answers the first result (kept in the intent);
 * - stop loss and take profit attached on fill (never without a stop: the AI's when not given,
 *   core/trading/manual-order.ts), the trade recorded by the reconcile with origin 'manual'.
 */
import { createHash, randomUUID } from "node:crypto";
import type { BrokerInstrument } from "../../../core/broker/port";
import { conversionInstruments } from "../../../core/conversion";
import { Decimal } from "../../../core/decimal";
import { msg } from "../../../core/i18n/message";
import { instrumentSpec, unitsToLots } from "../../../core/instruments";
import { maxTradeUnits, effectiveLeverage } from "../../../core/engine/sizing";
import { resolveTimezone, tradingDayStart } from "../../../core/risk";
import { deriveRiskCounters } from "../../../core/trading/counters";
import { entryVerdict } from "../../../core/trading/entry-risk";
import { manualOrderRequest, manualStops, parseManualOrder, type ManualStops } from "../../../core/trading/manual-order";
import { quoteToAccountRate } from "../../../core/trading/orders";
import { translateMsg } from "~/i18n";
import { counterTrades } from "./counter-trades.server";
import { offeredInstrumentList } from "../broker/account-state.server";
import { brokerFailure, brokerNow, recordMarketTime, requireBroker } from "../broker/broker.server";
import { newsCalendarFor } from "./calendar.server";
import { db } from "../platform/db.server";
import { ConflictError, DomainError, ServiceUnavailableError, ValidationError } from "../platform/errors.server";
import { requireValidLicence } from "../identity/licence.server";
import { sendMarketOrder } from "./order-send.server";
import { reconcile } from "./reconcile.server";
import { getSettings } from "./settings.server";
import { withUserLock } from "../platform/user-lock.server";
import { riskAnchors } from "../../../db/queries/bots";
import { manualIntentWithTrade } from "../../../db/queries/order-intents";

/** How long a manual order waits for a running tick of the bot to release the user's lock. */
export const LOCK_WAIT_MS = 15_000;

/** The caller of a manual order. */
export interface OrderUser {
  id: string;
  role: string;
  subscription_status: string;
  preferences?: { timezone?: string; language?: string } | null;
}

/** The client order id of a manual order: from the user and the idempotency key (the same key → the same order). */
export function manualClientOrderId(userId: string, key: string): string {
  return `mo-${createHash("sha256").update(`${userId}:manual:${key}`).digest("hex").slice(0, 24)}`;
}

/** The answer of a manual order: HTTP status and JSON body. */
export interface ManualOrderAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** What a manual order's intent keeps for the replay (order_intents.request). */
interface StoredRequest extends ManualStops {
  idempotencyKey: string;
}

/**
 * Places a manual market order for `user` from the request body (`headerKey`: the Idempotency-Key
 * header). Texts in `language`.
 * @throws ValidationError (400, Portuguese by default) for bad input, an instrument the account does
 *   not offer or units outside its limits, and without a broker connection ('Nenhuma conta Oanda conectada.');
 *   PaymentRequiredError (402) without a licence; ConflictError (409) when the risk gate or the leverage
 *   cap refuses (`code`, `reason`), when the broker did not fill, or when the key was used for another
 *   order; ServiceUnavailableError (503) while the bot's tick holds the account longer than LOCK_WAIT_MS;
 *   the broker's failure as its API error.
 */
export async function placeManualOrder(user: OrderUser, body: unknown, headerKey: string | null, language: unknown = "pt"): Promise<ManualOrderAnswer> {
  const parsed = parseManualOrder(body, headerKey);
  if (!parsed.ok) throw new ValidationError(parsed.msg, { field: parsed.field });
  const input = parsed.input;
  await requireBroker(user.id); // 400 without a connection, before the licence
  await requireValidLicence(user, msg("manual-order:errors.licence"));
  const key = input.idempotencyKey ?? randomUUID();
  const clientOrderId = manualClientOrderId(user.id, key);
  const replay = await storedAnswer(user.id, clientOrderId, input, language);
  if (replay) return replay;

  const locked = await withUserLock(
    user.id,
    async (signal) => {
      const { conn, client } = await requireBroker(user.id, signal);
      try {
        await reconcile(user.id, conn, client);
        const again = await storedAnswer(user.id, clientOrderId, input, language);
        if (again) return again;
        const [summary, offered, openTrades, settings, bot] = await Promise.all([
          client.getAccountSummary(conn.account_id),
          offeredInstrumentList(conn, client),
          client.listOpenTrades(conn.account_id),
          getSettings(user.id),
          riskAnchors(db(), user.id),
        ]);
        const spec = offered.find((i) => i.name === input.instrument);
        if (!spec) throw new ValidationError(msg("manual-order:errors.notOffered", { instrument: input.instrument }), { field: "instrument" });
        checkSize(input.units, spec);
        const names = offered.map((i) => i.name);
        const wanted = [input.instrument, ...conversionInstruments(instrumentSpec(input.instrument).quote, summary.currency, names)];
        const prices = await client.getPricing(conn.account_id, [...new Set(wanted)]);
        const price = prices.find((p) => p.instrument === input.instrument);
        if (!price) throw new ConflictError(msg("manual-order:errors.noPrice", { instrument: input.instrument }), { code: "no_price" });
        // The broker clock's offset is stored when it moves, as the tick does (the simulator replays history; ≈0 on OANDA).
        const market = Date.parse(price.time);
        if (market > 0 && Math.abs(market - brokerNow(conn)) > 1000) await recordMarketTime(user.id, market);

        // The risk gate, asked as the AI's tick asks it (core/trading/tick.ts), at the broker's price time.
        const now = new Date(market || brokerNow(conn));
        const timezone = resolveTimezone(user.preferences?.timezone);
        const counters = deriveRiskCounters({
          trades: await counterTrades(user.id, conn.account_id, tradingDayStart(now, timezone, settings.tradingDayBoundary)),
          now,
          timezone,
          boundary: settings.tradingDayBoundary,
          balance: summary.balance,
          equity: summary.NAV,
          highWaterMark: bot?.peak_balance ?? null,
          runStartedAt: bot?.last_started_at ? new Date(brokerNow(conn, bot.last_started_at.getTime())) : null,
        });
        const open = { all: openTrades.length, by: new Map<string, number>() };
        for (const t of openTrades) open.by.set(t.instrument, (open.by.get(t.instrument) ?? 0) + 1);
        const news = (await newsCalendarFor(settings)).blackout(input.instrument, now);
        const verdict = entryVerdict({ now, settings, instrument: input.instrument, timezone, licenceValid: true, price, news, open, counters, account: summary });
        if (!verdict.allowed) throw new ConflictError(verdict.reasonMsg, { code: verdict.code, refused: true });

        // The leverage and margin cap of the AI's sizing: a manual size is refused, not shrunk.
        const entry = input.side === "buy" ? price.ask : price.bid;
        const rate = quoteToAccountRate(instrumentSpec(input.instrument).quote, summary.currency, prices);
        const cap = maxTradeUnits({
          instrument: input.instrument,
          balance: summary.balance,
          accountCurrency: summary.currency,
          price: entry,
          ...(rate !== undefined ? { quoteToAccountRate: rate } : {}),
          marginAvailable: summary.marginAvailable,
          marginRate: spec.marginRate,
          maxLeverage: settings.maxLeveragePerTrade,
        });
        if (cap === null) throw new ConflictError(msg("engine:sizing.noConversionRate", { from: instrumentSpec(input.instrument).quote, to: summary.currency }), { code: "no_conversion_rate", refused: true });
        if (new Decimal(input.units).abs().gt(cap))
          throw new ConflictError(
            msg("manual-order:errors.leverageCap", {
              lots: unitsToLots(input.units).toFixed(2),
              maxLots: Decimal.max(cap, 0).div(100_000).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(2),
              leverage: effectiveLeverage(settings.maxLeveragePerTrade, spec.marginRate),
            }),
            { code: "leverage_cap", refused: true },
          );

        const stops = manualStops(input, entry, settings);
        if (!stops.ok) throw new ValidationError(stops.msg, { field: stops.field });
        const request: StoredRequest = { ...stops.stops, idempotencyKey: key };
        const order = manualOrderRequest({ instrument: input.instrument, units: input.units, stopLoss: stops.stops.stopLoss, takeProfit: stops.stops.takeProfit }, clientOrderId);
        const intent = { clientOrderId, decisionId: `manual:${key}`, instrument: input.instrument, units: input.units, origin: "manual" as const, request: { ...request } };
        const sent = await sendMarketOrder(user.id, conn, client, intent, order);
        if (sent.status === "filled") await reconcile(user.id, conn, client);
        return (await storedAnswer(user.id, clientOrderId, input, language, false))!;
      } catch (err) {
        if (err instanceof DomainError) throw err;
        throw brokerFailure(err);
      }
    },
    { waitMs: LOCK_WAIT_MS },
  );
  if (!locked.acquired) throw new ServiceUnavailableError(msg("manual-order:errors.busy"), { retryAfter: 5 });
  return locked.value;
}

/** Refuses units below the broker's minimum trade size or above its maximum order units for the instrument. */
function checkSize(units: string, spec: BrokerInstrument) {
  const abs = new Decimal(units).abs();
  if (spec.minimumTradeSize && abs.lt(spec.minimumTradeSize))
    throw new ValidationError(msg("manual-order:errors.belowMinimum", { minimum: spec.minimumTradeSize, instrument: spec.name }), { field: "units" });
  if (spec.maximumOrderUnits && new Decimal(spec.maximumOrderUnits).gt(0) && abs.gt(spec.maximumOrderUnits))
    throw new ValidationError(msg("manual-order:errors.aboveMaximum", { maximum: spec.maximumOrderUnits, instrument: spec.name }), { field: "units" });
}


/**
 * The answer of the manual order `clientOrderId` as its intent and trade say (the first call's and
 * every repeat's), or undefined when no such order exists. `replayed`: answered from a previous call.
 * @throws ConflictError when the key was used for another instrument or size, or the broker did not fill.
 */
async function storedAnswer(
  userId: string,
  clientOrderId: string,
  input: { instrument: string; units: string },
  language: unknown,
  replayed = true,
): Promise<ManualOrderAnswer | undefined> {
  const row = await manualIntentWithTrade<StoredRequest>(db(), userId, clientOrderId);
  if (!row) return undefined;
  if (row.instrument !== input.instrument || !new Decimal(row.units).eq(input.units))
    throw new ConflictError(msg("manual-order:errors.keyReused"), { code: "idempotency_key_reused" });
  if (row.status === "cancelled" || row.status === "rejected" || row.status === "failed")
    throw new ConflictError(msg("manual-order:errors.notFilled", { reason: row.detail ?? row.status }), { code: "not_filled", status: row.status, clientOrderId, replayed });
  const stops = row.request;
  const notices = [
    ...(stops?.defaulted.stopLoss ? [translateMsg(msg("manual-order:defaultStopLoss", { pips: stops.stopLossPips, timeframe: stops.timeframe }), language)] : []),
    ...(stops?.defaulted.takeProfit ? [translateMsg(msg("manual-order:defaultTakeProfit", { pips: stops.takeProfitPips, timeframe: stops.timeframe }), language)] : []),
  ];
  const filled = row.status === "filled";
  return {
    status: filled ? 200 : 202,
    body: {
      success: filled,
      status: row.status,
      message: translateMsg(msg(filled ? "manual-order:filled" : "manual-order:pending"), language),
      replayed,
      clientOrderId,
      idempotencyKey: stops?.idempotencyKey ?? null,
      origin: "manual",
      instrument: row.instrument,
      units: new Decimal(row.units).toFixed(0),
      side: new Decimal(row.units).gt(0) ? "buy" : "sell",
      stopLoss: stops?.stopLoss ?? null,
      takeProfit: stops?.takeProfit ?? null,
      stopLossPips: stops?.stopLossPips ?? null,
      takeProfitPips: stops?.takeProfitPips ?? null,
      defaulted: stops?.defaulted ?? { stopLoss: false, takeProfit: false },
      notices,
      trade: row.trade_id
        ? {
            id: row.trade_id,
            tradeId: row.trade_id,
            instrument: row.instrument,
            side: row.side,
            units: row.trade_units,
            openPrice: row.open_price,
            entryPrice: row.open_price,
            stopLoss: row.stop_loss,
            takeProfit: row.take_profit,
            openTime: row.open_time?.toISOString() ?? null,
            status: row.trade_status,
            origin: "manual",
          }
        : null,
    },
  };
}

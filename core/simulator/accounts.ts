/**
 * Users and accounts: creation, and the account figures OANDA reports (PROTOCOL.md §7.2, §7.14),
 * all in the account currency with 4 decimals. Rules: unrealized P&L of a trade is valued at the
 * price that would close it (bid for longs, ask for shorts) converted quote→home at mid;
 * margin used = |units| × mid × rate(quote→home) × marginRate (0.0333);
 * NAV = balance + unrealizedPL; marginAvailable = max(0, NAV − marginUsed). Netting account
 * (`hedgingEnabled:false`).
 */
import type { Environment } from "../broker/port";
import { Decimal, formatMoney } from "../decimal";
import { instrumentSpec, formatPrice } from "../instruments";
import type { Pricing } from "./pricing";
import type { AccountState, SimState, TradeState, UserState } from "./state";
import { addTx, newBatch } from "./transactions";
import { rfc3339 } from "./time";
import { pendingOrderCount } from "./lookup";

/** Margin rate of every instrument and account (30:1). */
export const MARGIN_RATE = "0.0333";

/** Error with an HTTP status and OANDA error body, thrown by the domain and rendered by routes. */
export class SimHttpError extends Error {
  constructor(readonly status: number, readonly body: Record<string, unknown>) {
    super(String(body.errorMessage ?? status));
  }
}

/** 16 random bytes as 32 hex digits (Web Crypto: no node:crypto in core). */
function randomHex16(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** OANDA-like token: 32 hex, dash, 32 hex. */
export function newToken(): string {
  return `${randomHex16()}-${randomHex16()}`;
}

/**
 * Creates a user with its accounts (ids `101-004-<user>-00n` practice, `001-001-<user>-00n` live),
 * each opened with CREATE + TRANSFER_FUNDS transactions (ids 1, 2).
 * @param accounts currency ∈ convertible currencies, balance a decimal string ≥ 0
 * @throws SimHttpError 400 on an unknown currency or bad balance
 */
export function createUser(
  state: SimState, pricing: Pricing, now: number, environment: Environment,
  accounts: { currency: string; balance: string }[],
): UserState {
  const ccys = pricing.currencies();
  for (const a of accounts) {
    if (!ccys.includes(a.currency)) throw new SimHttpError(400, { errorMessage: `Invalid value specified for 'currency': supported ${ccys.join(", ")}` });
    if (!/^\d+(\.\d+)?$/.test(a.balance)) throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'balance'" });
  }
  const userID = state.nextUserID++;
  const prefix = environment === "practice" ? "101-004" : "001-001";
  const user: UserState = { userID, token: newToken(), environment, accountIDs: [] };
  accounts.forEach((a, i) => {
    const acct: AccountState = {
      id: `${prefix}-${userID}-${String(i + 1).padStart(3, "0")}`, userID, environment, currency: a.currency,
      createdTime: rfc3339(now), balance: formatMoney(0), pl: formatMoney(0), lastTransactionID: 0,
      transactions: [], trades: [], orders: [], positionPL: {},
    };
    const b = newBatch(acct, now);
    addTx(b, "CREATE", { divisionID: environment === "practice" ? 4 : 1, siteID: environment === "practice" ? 101 : 1, accountUserID: userID, accountNumber: i + 1, homeCurrency: a.currency });
    acct.balance = formatMoney(a.balance);
    addTx(b, "TRANSFER_FUNDS", { amount: formatMoney(a.balance), fundingReason: "CLIENT_FUNDING", accountBalance: acct.balance });
    state.accounts.push(acct);
    user.accountIDs.push(acct.id);
  });
  state.users.push(user);
  return user;
}

/** Live figures of one open trade in account currency (unrounded Decimals). */
export interface TradeFigures {
  unrealizedPL: Decimal;
  marginUsed: Decimal;
  positionValue: Decimal;
}

/** Figures of an open trade at sim time `now` (see module rules). */
export function tradeFigures(pricing: Pricing, acct: AccountState, t: TradeState, now: number): TradeFigures {
  const q = pricing.quote(t.instrument, now);
  const units = new Decimal(t.currentUnits);
  const conv = pricing.rate(instrumentSpec(t.instrument).quote, acct.currency, now);
  const close = units.isPositive() ? q.bid : q.ask;
  const positionValue = units.abs().mul(q.mid).mul(conv);
  return {
    unrealizedPL: close.sub(t.price).mul(units).mul(conv),
    positionValue,
    marginUsed: positionValue.mul(MARGIN_RATE),
  };
}

/** Open trades of an account, oldest first. */
export function openTrades(acct: AccountState): TradeState[] {
  // Trades are appended in open order and never reopen, so every trade before the first open one
  // stays closed: the scan starts there (a long backtest books thousands of trades; scanning them all
  // at every price step made its cost grow with the square of the trades).
  const trades = acct.trades;
  let first = Math.min(firstOpen.get(trades) ?? 0, trades.length);
  while (first < trades.length && trades[first]!.state !== "OPEN") first++;
  firstOpen.set(trades, first);
  const out: TradeState[] = [];
  for (let i = first; i < trades.length; i++) if (trades[i]!.state === "OPEN") out.push(trades[i]!);
  return out;
}

/** Index of the oldest trade that may still be open, per trades array (see openTrades). */
const firstOpen = new WeakMap<readonly TradeState[], number>();

/** Account totals at `now`: unrealizedPL, marginUsed, positionValue, NAV, marginAvailable (Decimals). */
export function accountTotals(pricing: Pricing, acct: AccountState, now: number) {
  let upl = new Decimal(0), margin = new Decimal(0), value = new Decimal(0);
  for (const t of openTrades(acct)) {
    const f = tradeFigures(pricing, acct, t, now);
    upl = upl.add(f.unrealizedPL.toDecimalPlaces(4));
    margin = margin.add(f.marginUsed);
    value = value.add(f.positionValue);
  }
  const nav = new Decimal(acct.balance).add(upl);
  const avail = Decimal.max(0, nav.sub(margin));
  return { unrealizedPL: upl, marginUsed: margin, positionValue: value, NAV: nav, marginAvailable: avail };
}

function pct(num: Decimal, den: Decimal): string {
  return den.lte(0) ? "0.00000" : num.div(den).toFixed(5);
}

/** `Account` summary JSON (GET A/summary; PROTOCOL.md §7.2). */
export function accountSummaryJSON(pricing: Pricing, acct: AccountState, now: number): Record<string, unknown> {
  const tot = accountTotals(pricing, acct, now);
  const open = openTrades(acct);
  const m = formatMoney;
  return {
    id: acct.id, alias: "Primary", currency: acct.currency, balance: acct.balance,
    createdByUserID: acct.userID, createdTime: acct.createdTime, guaranteedStopLossOrderMode: "DISABLED",
    pl: acct.pl, resettablePL: acct.pl, resettablePLTime: "0", financing: m(0), commission: m(0),
    dividendAdjustment: "0", guaranteedExecutionFees: m(0), marginRate: MARGIN_RATE,
    openTradeCount: open.length, openPositionCount: new Set(open.map((t) => t.instrument)).size,
    pendingOrderCount: pendingOrderCount(acct), hedgingEnabled: false,
    unrealizedPL: m(tot.unrealizedPL), NAV: m(tot.NAV), marginUsed: m(tot.marginUsed), marginAvailable: m(tot.marginAvailable),
    positionValue: m(tot.positionValue), marginCloseoutUnrealizedPL: m(tot.unrealizedPL), marginCloseoutNAV: m(tot.NAV),
    marginCloseoutMarginUsed: m(tot.marginUsed), marginCloseoutPercent: pct(tot.marginUsed.div(2), tot.NAV),
    marginCloseoutPositionValue: m(tot.positionValue), withdrawalLimit: m(tot.marginAvailable),
    marginCallMarginUsed: m(tot.marginUsed), marginCallPercent: pct(tot.marginUsed, tot.NAV),
    lastTransactionID: String(acct.lastTransactionID),
  };
}

/**
 * `Position` JSON per instrument (PROTOCOL.md §7.14): every instrument ever traded, or only those
 * with open units when `openOnly`. Short units are negative; `"0"` when flat.
 */
export function positionsJSON(pricing: Pricing, acct: AccountState, now: number, openOnly: boolean): Record<string, unknown>[] {
  const insts = Object.keys(acct.positionPL).sort();
  const out: Record<string, unknown>[] = [];
  for (const inst of insts) {
    const trades = openTrades(acct).filter((t) => t.instrument === inst);
    if (openOnly && trades.length === 0) continue;
    const pl = acct.positionPL[inst]!;
    const side = (long: boolean) => {
      const ts = trades.filter((t) => new Decimal(t.currentUnits).isPositive() === long);
      let units = new Decimal(0), value = new Decimal(0), upl = new Decimal(0);
      for (const t of ts) {
        units = units.add(t.currentUnits);
        value = value.add(new Decimal(t.currentUnits).abs().mul(t.price));
        upl = upl.add(tradeFigures(pricing, acct, t, now).unrealizedPL.toDecimalPlaces(4));
      }
      const p = long ? pl.long : pl.short;
      return {
        units: units.toFixed(),
        ...(ts.length ? { averagePrice: formatPrice(inst, value.div(units.abs())), tradeIDs: ts.map((t) => t.id) } : {}),
        pl: p, resettablePL: p, financing: formatMoney(0), dividendAdjustment: "0", guaranteedExecutionFees: formatMoney(0),
        unrealizedPL: formatMoney(upl),
      };
    };
    const long = side(true), short = side(false);
    const margin = trades.reduce((s, t) => s.add(tradeFigures(pricing, acct, t, now).marginUsed), new Decimal(0));
    const total = new Decimal(pl.long).add(pl.short);
    out.push({
      instrument: inst, pl: formatMoney(total), unrealizedPL: formatMoney(new Decimal(long.unrealizedPL).add(short.unrealizedPL)),
      marginUsed: formatMoney(margin), resettablePL: formatMoney(total), financing: formatMoney(0), commission: formatMoney(0),
      dividendAdjustment: "0", guaranteedExecutionFees: formatMoney(0), long, short,
    });
  }
  return out;
}

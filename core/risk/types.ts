/**
 * Types of the risk gate (DESIGN.md §3 step 3). Money is in account currency as decimal strings;
 * times are UTC instants.
 */
import type { Msg } from "../i18n/message";
import type { TradingSettings } from "../settings";

/**
 * Stop reasons a tripped rule may impose on the bot (PRODUCT.md §4 "AI loop" stop reasons, plus
 * broker). No rule returns 'trading_hours' (outside the hours the bot waits, see
 * tradingHoursRule); it stays for a stop made for that reason elsewhere ('Parado fora do horário').
 * A lapsed licence no longer stops the bot: it puts it in manage-only (ManageOnlyReason).
 */
export type StopBotReason = "max_consecutive_losses" | "daily_loss_limit" | "max_drawdown" | "trading_hours" | "broker";

/**
 * Why the bot may only manage its open trades (issue 9 "manage-only"): it stays on, opens nothing,
 * and its open trades keep their stop loss / take profit and are still reconciled and managed.
 * "licence": the licence lapsed (follows the licence); "user": the user stopped new entries (issue 22
 * kill switch 'Parar novas entradas'; holds until the user resumes, whatever the licence does).
 */
export type ManageOnlyReason = "licence" | "user";

export interface RiskContext {
  /** Decision instant (UTC). */
  now: Date;
  /** The user's IANA timezone (preferences.timezone) for the trading hours; default DEFAULT_TIMEZONE. */
  timezone?: string;
  settings: TradingSettings;
  instrument: string;
  licenceValid: boolean;
  brokerConnected: boolean;
  /** Price tradeable flag from the broker (false = market closed or halted). */
  priceTradeable: boolean;
  /** Current spread in pips. */
  spreadPips: number;
  /** Override of the spread limit in pips; default from MAX_SPREAD_PIPS. */
  maxSpreadPips?: number;
  newsBlackout?: { active: boolean; event?: string };
  /** Open trades on the account / on this instrument. */
  openTrades: number;
  openTradesOnInstrument: number;
  /** Trades opened since tradingDayStart(now). */
  tradesToday: number;
  /** Realized P&L since tradingDayStart(now), account currency (negative = loss). */
  realizedPLToday: string;
  /**
   * Current unrealized P&L of the open trades, account currency (negative = loss). Counted by the
   * daily loss limit when settings.dailyLossIncludesUnrealized; absent = 0.
   */
  unrealizedPL?: string;
  /** Balance at tradingDayStart(now), account currency. */
  dayStartBalance: string;
  /** Current equity (the account's NAV: balance + unrealized P&L), account currency; the drawdown is measured on it. */
  equity: string;
  /** High-water mark of equity (never reset), account currency. */
  highWaterMark: string;
  /** Closed trades in a row with result LOSS, newest first (reset by a WIN). */
  consecutiveLosses: number;
  /** Open time of the last trade opened. */
  lastTradeAt?: Date;
  /**
   * Set when the account's rules (core/broker/account-rules.ts) skip this pair: the broker's minimum
   * trade size and the units the risk gives on this balance (minimumTradeSizeRule refuses the entry).
   */
  minimumSizeAboveRisk?: { minimum: string; units: string };
}

export interface RiskVerdict {
  allowed: boolean;
  /** Machine code of the rule that decided ("ok" when allowed). */
  code: string;
  /** Portuguese text of `reasonMsg`, logged and kept next to the message. */
  reason: string;
  /** The reason as a translatable message (risk:*, ADR 0007), shown in the reader's language. */
  reasonMsg: Msg;
  stopBot?: StopBotReason;
  /** Set when the block holds for the whole account, not one instrument: the bot turns manage-only. */
  manageOnly?: ManageOnlyReason;
}

/** One protection: returns a blocking verdict, or null to pass. */
export type RiskRule = (ctx: RiskContext) => RiskVerdict | null;

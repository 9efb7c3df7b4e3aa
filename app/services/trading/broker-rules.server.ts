/**
 * The broker-rule check of a user's account (issue 22; core/broker/account-rules.ts): computed at
 * connect and again on each sync window of the bot (a tick that synced), stored in
 * `account_states.account_rules` (migration 0023) with the environment and account it is about, and
 * notified when what a trader would notice changes (mode, currency, skipped or unoffered pairs,
 * margin rates). Read back through the owner (where user_id = …) and the current connection only.
 */
import type { BrokerPort, Environment } from "../../../core/broker/port";
import { accountRules, skippedInstruments, type AccountRules } from "../../../core/broker/account-rules";
import { conversionInstruments } from "../../../core/conversion";
import { msg } from "../../../core/i18n/message";
import { instrumentSpec } from "../../../core/instruments";
import { resolveInstruments, type TradingSettings } from "../../../core/settings";
import type { AccountSummary, BrokerInstrument } from "../../../core/broker/port";
import { translateMsg } from "~/i18n";
import { saveInstruments, storedFor, type StoredAccountState } from "../broker/account-state.server";
import { accountRulesRow, saveAccountRulesRow } from "../../../db/queries/account-states";
import { db } from "../platform/db.server";
import { logger } from "../platform/logger.server";
import { notify } from "../notify/notifications.server";
import { sharedQuotes } from "../broker/quote-cache.server";
import { getSettings } from "./settings.server";

/** A stored check: the rules plus the account it is about. */
export type StoredAccountRules = AccountRules & { environment: Environment; accountId: string };

/** The stored rules when they are about `conn`'s account (anything else, or garbage, is undefined). */
export function rulesFor(json: unknown, conn: { environment: string; account_id: string }): StoredAccountRules | undefined {
  if (!json || typeof json !== "object") return undefined;
  const r = json as StoredAccountRules;
  return r.environment === conn.environment && r.accountId === conn.account_id && Array.isArray(r.instruments) && Array.isArray(r.lines) ? r : undefined;
}

/** The pairs the stored rules skip (for the executor's TickContext.minimumSizeSkips). */
export function storedSkips(json: unknown, conn: { environment: string; account_id: string }) {
  return skippedInstruments(rulesFor(json, conn));
}

/**
 * Checks the account's rules now and stores them (one read of summary, instruments and quotes at
 * most, and the offered instruments, stored for the bot too; summary and settings reused when the caller
 * has them). Notifies 'Regras da conta mudaram' when a previous check
 * of the same account said otherwise.
 * @param known the summary, settings the caller already read
 * @throws the broker's error when the instruments or quotes cannot be read
 */
export async function checkAccountRules(
  userId: string,
  conn: { environment: Environment; account_id: string },
  client: BrokerPort,
  known: { summary?: Pick<AccountSummary, "currency" | "balance" | "hedgingEnabled">; settings?: TradingSettings; instruments?: readonly BrokerInstrument[] } = {},
): Promise<{ rules: StoredAccountRules; changed: boolean }> {
  // Without a recent list (the re-check's, RULES_INSTRUMENTS_MAX_AGE_MS), the instruments are read from the broker: a changed minimum size or margin rate is the news here.
  const [summary, settings, list] = await Promise.all([
    known.summary ?? client.getAccountSummary(conn.account_id),
    known.settings ?? getSettings(userId),
    known.instruments ?? client.getInstruments(conn.account_id),
  ]);
  if (!known.instruments) await saveInstruments(userId, conn, list);
  const offered = list.map((i) => i.name);
  const names = new Set(resolveInstruments(settings).filter((i) => offered.includes(i)));
  for (const i of [...names]) for (const c of conversionInstruments(instrumentSpec(i).quote, summary.currency, offered)) names.add(c);
  const wanted = [...names].sort();
  const prices = wanted.length ? await sharedQuotes(conn.environment, wanted, { accountId: conn.account_id, client, offered }) : [];
  const rules: StoredAccountRules = { ...accountRules({ summary, instruments: list, settings, prices }), environment: conn.environment, accountId: conn.account_id };
  const previous = await saveAccountRulesRow(db(), userId, conn, rules);
  const before = rulesFor(previous, conn);
  const changed = before !== undefined && before.signature !== rules.signature;
  if (changed) {
    await notify(userId, { type: "warning", title: msg("broker-rules:notice.title"), message: msg("broker-rules:notice.message"), metadata: { accountRules: rules.signature } });
  }
  return { rules, changed };
}

/**
 * How old the stored list of offered instruments may be for the re-check after a sync, ms: the broker's
 * minimum sizes and margin rates are re-read at most hourly per account, while the balance-dependent part
 * of the rules (the 1 % risk against the minimum size) is recomputed every sync window. Re-reading the list
 * on every window cost 0.2-0.4 broker requests per tick at 5,000 bots and pushed the lag p99 to 200 s (issue 24).
 */
export const RULES_INSTRUMENTS_MAX_AGE_MS = 60 * 60_000;

/**
 * Re-check after a bot tick that synced (ADR 0027: once per sync window, or after transactions), on the
 * stored instruments list when it is younger than RULES_INSTRUMENTS_MAX_AGE_MS (`known.stored`, the tick's
 * stored account state), else on a fresh read. Never fails the tick: a failure is logged and the previous check stays.
 */
export async function recheckAfterSync(
  userId: string,
  conn: { environment: Environment; account_id: string },
  client: BrokerPort,
  known: { summary?: Pick<AccountSummary, "currency" | "balance" | "hedgingEnabled">; settings: TradingSettings; stored?: StoredAccountState },
): Promise<void> {
  try {
    const { stored, ...rest } = known;
    const s = storedFor(stored, conn);
    const recent = s?.instruments && s.instruments_read_at && Date.now() - s.instruments_read_at.getTime() < RULES_INSTRUMENTS_MAX_AGE_MS ? s.instruments : undefined;
    await checkAccountRules(userId, conn, client, { ...rest, ...(recent ? { instruments: recent } : {}) });
  } catch (err) {
    logger().warn({ userId, err }, "verificação das regras da conta falhou; a anterior continua valendo");
  }
}

/** The rules as shown (API and screens): lines rendered in `language`, plus the figures. */
export interface AccountRulesView {
  mode: "hedging" | "fifo";
  currency: string;
  balance: string;
  riskPct: number;
  checkedAt: string | null;
  will: string[];
  wont: string[];
  instruments: AccountRules["instruments"];
}

/** Renders stored rules for a reader. */
export function rulesView(rules: StoredAccountRules, checkedAt: Date | null, language: unknown): AccountRulesView {
  const render = (kind: "will" | "wont") => rules.lines.filter((l) => l.kind === kind).map((l) => translateMsg(l.message, language));
  return {
    mode: rules.mode,
    currency: rules.currency,
    balance: rules.balance,
    riskPct: rules.riskPct,
    checkedAt: checkedAt ? checkedAt.toISOString() : null,
    will: render("will"),
    wont: render("wont"),
    instruments: rules.instruments,
  };
}

/** The stored rules of the user's current connection, rendered in `language`; null before any check or without a connection. */
export async function readAccountRules(userId: string, language: unknown): Promise<AccountRulesView | null> {
  const row = await accountRulesRow(db(), userId);
  const rules = row ? rulesFor(row.account_rules, row) : undefined;
  return rules ? rulesView(rules, row!.checked_at, language) : null;
}

/**
 * The alias and fallback paths of PRODUCT.md §7 ("multi-path calls try each path in order"), each
 * answered by its primary path's one handler: the request is re-addressed before Remix routes it
 * (method, headers, body and query kept), so an alias can never drift from its primary. A path
 * segment `:id` (a broker account id in the per-account variants) matches any single segment and is
 * not used: every primary reads the caller's own account.
 */
import type { NextFunction, Request, Response } from "express";

/** Alias → primary path (PRODUCT.md §7 Account, AI, Orders, Subscription/billing). */
export const API_ALIASES: readonly { alias: string; primary: string }[] = [
  // Account summary
  { alias: "/api/account", primary: "/api/account/summary" },
  { alias: "/api/user/summary", primary: "/api/account/summary" },
  // Open trades, and their per-account variants
  { alias: "/api/account/trades", primary: "/api/trades/account/open" },
  { alias: "/api/account/positions", primary: "/api/trades/account/open" },
  { alias: "/api/account/:id/trades/open", primary: "/api/trades/account/open" },
  { alias: "/api/account/:id/positions", primary: "/api/trades/account/open" },
  { alias: "/api/trades/account/:id/open", primary: "/api/trades/account/open" },
  // Trades and history (days default 30), and the closed trades per account
  { alias: "/api/trades", primary: "/api/trades/account/history" },
  { alias: "/api/account/trades/history", primary: "/api/trades/account/history" },
  { alias: "/api/trades/history", primary: "/api/trades/account/history" },
  { alias: "/api/trading/history", primary: "/api/trades/account/history" },
  { alias: "/trades/history", primary: "/api/trades/account/history" },
  { alias: "/api/trades/account/:id/closed", primary: "/api/trades/account/history" },
  { alias: "/api/account/:id/trades/closed", primary: "/api/trades/account/history" },
  { alias: "/api/trades/account/:id", primary: "/api/trades/account/history" },
  // AI: run once, loop start/stop/status
  { alias: "/api/ai/run-once", primary: "/api/trades/ai/loop/run-once" },
  { alias: "/api/trades/ai/run-once", primary: "/api/trades/ai/loop/run-once" },
  { alias: "/api/trades/ai/start", primary: "/api/trades/ai/loop/run-once" },
  { alias: "/api/ai/start", primary: "/api/trades/ai/loop/run-once" },
  { alias: "/api/ai/loop/start", primary: "/api/trades/ai/loop/start" },
  { alias: "/api/ai/loop/stop", primary: "/api/trades/ai/loop/stop" },
  { alias: "/api/ai/status", primary: "/api/trades/ai/loop/status" },
  // Orders: the manual market order (issue 22)
  { alias: "/api/trading/order", primary: "/api/orders/market" },
  // Upcoming invoice
  { alias: "/api/stripe/invoice/upcoming", primary: "/api/billing/upcoming" },
  { alias: "/api/stripe/upcoming-invoice", primary: "/api/billing/upcoming" },
  { alias: "/api/stripe/invoices/upcoming", primary: "/api/billing/upcoming" },
];

/** Paths that are routes of their own and must never be taken for an alias's `:id`. */
const PRIMARY_PATHS = new Set(API_ALIASES.map((a) => a.primary));

const compiled = API_ALIASES.map(({ alias, primary }) => ({
  pattern: new RegExp(`^${alias.replace(/:id/g, "[^/]+")}/?$`),
  primary,
}));

/** The primary path of `path` when it is an alias, else undefined. */
export function primaryPathOf(path: string): string | undefined {
  if (PRIMARY_PATHS.has(path)) return undefined;
  return compiled.find((c) => c.pattern.test(path))?.primary;
}

/** Express middleware: re-addresses an alias request to its primary path (query string kept). */
export function apiAliases(req: Request, _res: Response, next: NextFunction): void {
  const primary = primaryPathOf(req.path);
  if (primary) {
    const q = req.originalUrl.indexOf("?");
    const url = primary + (q >= 0 ? req.originalUrl.slice(q) : "");
    req.url = url;
    req.originalUrl = url;
  }
  next();
}

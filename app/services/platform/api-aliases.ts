/**
 * The alias and fallback paths of PRODUCT.md §7 ("multi-path calls try each path in order"), each
 * answered by its primary path's one handler (server/api-aliases.ts re-addresses the request before
 * Remix routes it). Here, below server/, so the API contract (app/route-support/openapi) documents every alias
 * from the same table. A segment `:id` (a broker account id in the per-account variants) matches any
 * single segment and is not used: every primary reads the caller's own account.
 */
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

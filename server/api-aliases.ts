/**
 * The alias and fallback paths of PRODUCT.md §7 ("multi-path calls try each path in order"), each
 * answered by its primary path's one handler: the request is re-addressed before Remix routes it
 * (method, headers, body and query kept), so an alias can never drift from its primary. A path
 * segment `:id` (a broker account id in the per-account variants) matches any single segment and is
 * not used: every primary reads the caller's own account.
 */
import type { NextFunction, Request, Response } from "express";
import { API_ALIASES } from "../app/services/platform/api-aliases";

/** Alias → primary path (the table lives in app/services/platform/api-aliases.ts, which the API contract reads too). */
export { API_ALIASES };

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

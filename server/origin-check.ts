/**
 * CSRF guard for every page form and API mutation (DESIGN.md §7 "mutations check Origin"): a
 * POST/PUT/PATCH/DELETE whose `Origin` names another host is refused with 403 and a Portuguese
 * message before it reaches Remix (whose own check would answer 500). Requests without `Origin`
 * (non-browser API clients) pass; the simulator is mounted before this.
 */
import type { RequestHandler } from "express";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export const rejectCrossSiteMutations: RequestHandler = (req, res, next) => {
  if (SAFE.has(req.method)) return next();
  const origin = req.headers.origin;
  if (!origin || origin === "null") return next();
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    host = "";
  }
  const expected = req.headers["x-forwarded-host"] ?? req.headers.host;
  if (host && host === expected) return next();
  const message = "Origem da requisição não permitida.";
  if (req.accepts(["json", "html"]) === "html") res.status(403).type("text/plain; charset=utf-8").send(message);
  else res.status(403).json({ success: false, message, error: message });
};

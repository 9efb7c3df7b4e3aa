/**
 * The HTTP methods the product serves (issue 24, abuse: `TRACE` answered 500 and exotic methods logged
 * full stacks from Remix). Any other method — TRACE, CONNECT, PROPFIND, LOCK, … — is answered 405 here,
 * before the simulators and Remix, with `Allow` and a Portuguese message (JSON for API clients, text for
 * pages), and nothing is logged as an error.
 */
import type { RequestHandler } from "express";
// The catalogue's own text (api:methodNotAllowed, the one apiRoute answers): the server bundle cannot load
// app/i18n (Vite's import.meta.glob), so it reads the Portuguese file directly.
import apiTexts from "../app/i18n/locales/pt/api.json";

/** Every method some route serves (OPTIONS and HEAD included: browsers and proxies send them). */
export const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const SERVED = new Set<string>(SERVED_METHODS);

/** The 405 text: the catalogue's `api:methodNotAllowed` (Portuguese, names the method). */
export function methodRefusedMessage(method: string): string {
  return apiTexts.methodNotAllowed.replace("{{method}}", method);
}

/** Express middleware: 405 with `Allow` for a method no route serves. */
export const refuseUnservedMethods: RequestHandler = (req, res, next) => {
  if (SERVED.has(req.method)) return next();
  const message = methodRefusedMessage(req.method.slice(0, 20));
  res.setHeader("Allow", SERVED_METHODS.join(", "));
  if (req.accepts(["json", "html"]) === "html") res.status(405).type("text/plain; charset=utf-8").send(message);
  else res.status(405).json({ success: false, message, error: message });
};

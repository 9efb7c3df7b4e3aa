/**
 * HTTP plumbing shared by the simulator routes: OANDA headers (RequestID, CORS as observed on real
 * REST responses, PROTOCOL.md §2), JSON replies honouring `Accept-Datetime-Format`, and the error
 * envelope `{"errorMessage", "errorCode"?}` (PROTOCOL.md §4).
 */
import { randomInt } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { SimHttpError } from "../../core/simulator/accounts";
import { toUnixTimes } from "../../core/simulator/time";

/** A 17-digit request id like OANDA's `RequestID` header. */
export function newRequestId(): string {
  return `${randomInt(100_000_000, 1_000_000_000)}${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
}

/** Middleware: RequestID + CORS headers on every reply; answers OPTIONS preflight with 204. */
export function oandaHeaders(req: Request, res: Response, next: NextFunction): void {
  const id = newRequestId();
  res.locals.requestID = id;
  res.setHeader("RequestID", id);
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Allow-Methods", "PUT, PATCH, POST, GET, OPTIONS, DELETE");
  res.setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept-Datetime-Format, ClientRequestID");
  res.setHeader("Access-Control-Expose-Headers", "RequestID, Location, Link");
  if (req.method === "OPTIONS") {
    res.status(204).end();
    return;
  }
  next();
}

/** True when the client asked for UNIX datetimes. */
export function wantsUnix(req: Request): boolean {
  return String(req.headers["accept-datetime-format"] ?? "").toUpperCase() === "UNIX";
}

/** Sends a JSON body with `status`, converting times to UNIX form when requested. */
export function sendJson(req: Request, res: Response, status: number, body: unknown): void {
  res.status(status).type("application/json").send(JSON.stringify(wantsUnix(req) ? toUnixTimes(body) : body));
}

/** Express handler for a path that exists but not with this method: 405 envelope. */
export function methodNotAllowed(req: Request, res: Response): void {
  sendJson(req, res, 405, { errorMessage: `Method ${req.method} not allowed for this endpoint` });
}

/** Catch-all 404 envelope for unknown paths under the simulator prefixes. */
export function notFound(req: Request, res: Response): void {
  sendJson(req, res, 404, { errorMessage: "The requested resource does not exist" });
}

/**
 * Express error middleware: SimHttpError → its status/body; malformed JSON → 400; anything else
 * → 500 `{"errorMessage":"Internal server error"}`.
 */
export function errorHandler(err: unknown, req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) return next(err);
  if (err instanceof SimHttpError) return sendJson(req, res, err.status, err.body);
  if ((err as { type?: string }).type === "entity.parse.failed") return sendJson(req, res, 400, { errorMessage: "Invalid JSON body" });
  sendJson(req, res, 500, { errorMessage: "Internal server error" });
}

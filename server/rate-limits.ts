/**
 * Rate limits on the auth endpoints that can be abused (DESIGN.md §7): login, register,
 * forgot-password and resend-confirmation, per client IP, with a Portuguese 429 message.
 */
import type { RequestHandler } from "express";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";

const LIMITED = new Set([
  "/api/auth/login",
  "/api/auth/register",
  "/api/auth/forgot-password",
  "/api/auth/resend-confirmation",
  "/auth",
  "/auth.data",
]);

/**
 * One limiter per path: `limit` POSTs per IP per 15 minutes (config `AUTH_RATE_LIMIT`, default 20; the
 * e2e run raises it since every browser shares 127.0.0.1). Per-e-mail limits of resend/forgot live in
 * PostgreSQL (app/services/verification.server.ts).
 */
export function authRateLimits(limit: number): RequestHandler {
  const limiter = rateLimit({
    windowMs: 15 * 60_000,
    limit,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    keyGenerator: (req) => `${ipKeyGenerator(req.ip ?? "")}:${req.path}`,
    skip: (req) => req.method !== "POST" || !LIMITED.has(req.path),
    handler: (_req, res) =>
      res.status(429).json({ success: false, message: "Muitas tentativas. Aguarde alguns minutos e tente novamente." }),
  });
  return limiter;
}

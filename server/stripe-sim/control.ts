/**
 * The Stripe simulator's control API, for tests and demos; local, same-origin callers only
 * (`localCallersOnly` of the OANDA simulator, server/simulator/control.ts). JSON in, JSON out:
 * - `GET /sim/clock` → `{now}` (epoch s); `POST /sim/clock {advanceSeconds}` walks renewals, failed
 *   renewals, trial ends and period-end cancellations (at most 400 days per call).
 * - `POST /sim/customers/:id/card {number}`: the card on file (4000 0000 0000 0341 fails every charge).
 * - `POST /sim/subscriptions/:id/end-period` → `{subscription}`: that subscription's period ends now (renewal,
 *   failed renewal → past_due, or the scheduled cancellation), the others and the clock untouched (e2e tests
 *   share one embedded simulator, so they cannot move its clock).
 * - `GET /sim/events` → `{events: [{id, type, created, object, attempts}]}`, oldest first.
 * - `POST /sim/events/:id/redeliver`; `POST /sim/events/duplicate {ids, times?}`; `POST /sim/events/send {ids}`
 *   (send these events again, in this order — a reordered delivery).
 * - `POST /sim/webhooks/pause` (hold new events); `POST /sim/webhooks/flush {order?: "reverse" | ids}`.
 * - `POST /sim/webhooks/idle` → 200 when nothing is queued or in flight.
 */
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { localCallersOnly } from "../simulator/control";
import type { Obj, StripeStore } from "./store";
import type { Attempt } from "./webhooks";

/** The controls of a running simulator (also served by `/sim/*`). */
export interface StripeSimulatorControl {
  /** Simulated time, epoch seconds. */
  now(): number;
  /** Where events are delivered from now on (undefined: recorded only). */
  setWebhookUrl(url: string | undefined): void;
  /** Moves the simulated clock forward (renewals, failed renewals, trial ends, cancellations). */
  advanceClock(seconds: number): void;
  /** Sets a customer's card on file (e.g. CARDS.failsLater to fail the next renewal). */
  setCard(customerId: string, number: string): void;
  /** Ends one subscription's current period now (store.endPeriodNow); @returns it. */
  endPeriodNow(subscriptionId: string): Obj;
  /** Every event, oldest first, with its delivery attempts. */
  events(): { id: string; type: string; created: number; object: Obj; attempts: Attempt[] }[];
  /** Sends these events (again) in this order; @returns their ids. @throws Error for an unknown id */
  redeliver(ids: string[]): string[];
  /** Holds new events until `flushWebhooks`. */
  pauseWebhooks(): void;
  /** Sends the held events (arrival order, `reverse`, or the order of ids) and resumes. */
  flushWebhooks(order?: "reverse" | string[]): string[];
  /** Resolves when no delivery is queued, in flight or waiting for a retry. */
  webhooksIdle(): Promise<void>;
  /** The store itself, for tests and seeding (e.g. `store.createProduct`). */
  store: StripeStore;
}

/** Most seconds one `POST /sim/clock` may advance: 400 days. */
export const MAX_ADVANCE_SECONDS = 400 * 86_400;

const fail = (res: Response, status: number, message: string) => res.status(status).json({ errorMessage: message });
const ids = (v: unknown): string[] | null => (Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : null);

/** Router for `/sim/*` (guarded by `localCallersOnly`, JSON bodies). */
export function stripeControlRouter(control: StripeSimulatorControl): Router {
  const r = express.Router();
  r.use(localCallersOnly, express.json({ limit: "100kb" }));
  const wrap = (fn: (req: Request, res: Response) => unknown) => (req: Request, res: Response, next: NextFunction) => {
    Promise.resolve(fn(req, res)).catch((err: unknown) => (err instanceof Error && /unknown event|no such/i.test(err.message) ? fail(res, 404, err.message) : next(err)));
  };
  r.get("/clock", (_req, res) => res.json({ now: control.now() }));
  r.post("/clock", wrap((req, res) => {
    const s = Number((req.body as { advanceSeconds?: unknown } | undefined)?.advanceSeconds);
    if (!Number.isFinite(s) || s < 0 || s > MAX_ADVANCE_SECONDS) return fail(res, 400, `advanceSeconds must be a number between 0 and ${MAX_ADVANCE_SECONDS}`);
    control.advanceClock(s);
    res.json({ now: control.now() });
  }));
  r.post("/customers/:id/card", wrap((req, res) => {
    const number = (req.body as { number?: unknown } | undefined)?.number;
    if (typeof number !== "string") return fail(res, 400, "number is required");
    control.setCard(String(req.params.id), number);
    res.json({ customer: req.params.id, card: number.replace(/\s/g, "") });
  }));
  r.post("/subscriptions/:id/end-period", wrap((req, res) => {
    try {
      res.json({ subscription: control.endPeriodNow(String(req.params.id)) });
    } catch (err) {
      if (err instanceof Error && /^endPeriodNow:/.test(err.message)) return fail(res, 409, err.message);
      throw err;
    }
  }));
  r.get("/events", (_req, res) => res.json({ events: control.events() }));
  r.post("/events/:id/redeliver", wrap((req, res) => res.json({ sent: control.redeliver([String(req.params.id)]) })));
  r.post("/events/duplicate", wrap((req, res) => {
    const body = (req.body ?? {}) as { ids?: unknown; times?: unknown };
    const list = ids(body.ids);
    const times = body.times === undefined ? 2 : Number(body.times);
    if (!list || !Number.isInteger(times) || times < 1 || times > 10) return fail(res, 400, "ids (array of event ids) and times (1–10) are required");
    res.json({ sent: control.redeliver(list.flatMap((id) => Array<string>(times).fill(id))) });
  }));
  r.post("/events/send", wrap((req, res) => {
    const list = ids((req.body as { ids?: unknown } | undefined)?.ids);
    if (!list) return fail(res, 400, "ids (array of event ids) is required");
    res.json({ sent: control.redeliver(list) });
  }));
  r.post("/webhooks/pause", (_req, res) => {
    control.pauseWebhooks();
    res.json({ paused: true });
  });
  r.post("/webhooks/flush", (req, res) => {
    const order = (req.body as { order?: unknown } | undefined)?.order;
    if (order !== undefined && order !== "reverse" && !ids(order)) return fail(res, 400, "order must be \"reverse\" or an array of event ids");
    res.json({ sent: control.flushWebhooks(order as "reverse" | string[] | undefined) });
  });
  r.post("/webhooks/idle", wrap(async (_req, res) => {
    await control.webhooksIdle();
    res.json({ idle: true });
  }));
  r.use((_req, res) => fail(res, 404, "Unknown control path"));
  return r;
}

/**
 * The Stripe simulator (DESIGN.md §4b): `createStripeSimulator(opts)` builds an Express router serving
 * `/v1/*` (routes.ts), the hosted pages `/checkout/*` and `/portal/*` (pages.ts) and the control API
 * `/sim/*` (control.ts), plus the same controls as functions; `startStripeSimulator(opts)` runs it on
 * its own HTTP server (cli.ts). Point the SDK at it with `new Stripe(key, { host, port, protocol: "http" })`.
 */
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { listenApp } from "../listen";
import { idempotency, requireKey, v1Router } from "./routes";
import { pagesRouter } from "./pages";
import { stripeControlRouter, type StripeSimulatorControl } from "./control";

export type { StripeSimulatorControl } from "./control";
import { StripeStore } from "./store";
import { WebhookSender } from "./webhooks";

export { STRIPE_API_VERSION, CARDS } from "./store";
export { signatureHeader } from "./webhooks";

export interface StripeSimulatorOptions {
  /** Wall clock, epoch ms (default Date.now); the simulated clock starts here and moves with it. */
  now?: () => number;
  /** The product's webhook endpoint; none → events are recorded but not sent. */
  webhookUrl?: string;
  /** Signing secret of that endpoint (`whsec_…`). */
  webhookSecret?: string;
  /** Only this secret key is accepted (default: any `sk_test_…`). */
  secretKey?: string;
  /** Public root of the simulator for hosted page URLs (default: from the request's host and mount path). */
  publicUrl?: string;
  /** Real ms before each webhook retry (default 500, 2000, 5000). */
  retryDelaysMs?: number[];
}

/** The mounted simulator: a router (mount at any path) with the controls and `stop()`. */
export type StripeSimulator = Router & StripeSimulatorControl & {
  /**
   * The `/v1` API alone. The SDK has no base-path option (only host/port/protocol), so the API must
   * answer `/v1` at the root of a host: mount `api` at an app's root and `ui` under a prefix (with
   * `publicUrl` naming that prefix), or run the whole simulator on its own port (`startStripeSimulator`).
   */
  api: Router;
  /** The hosted pages (`/checkout/*`, `/portal/*`) and the control API (`/sim/*`) alone. */
  ui: Router;
  stop(): void;
};

/**
 * Builds the simulator. The router serves everything; mount it at a host's root (see `api`/`ui` to
 * split it: the SDK reaches `/v1` at the root of `host:port` only).
 */
export function createStripeSimulator(opts: StripeSimulatorOptions = {}): StripeSimulator {
  const sender = new WebhookSender({ url: opts.webhookUrl, secret: opts.webhookSecret, retryDelaysMs: opts.retryDelaysMs });
  const store = new StripeStore({ now: opts.now ?? Date.now, onEvent: (e) => sender.enqueue(e) });
  const baseUrl = (req: Request) => opts.publicUrl ?? `${req.protocol}://${req.get("host") ?? "localhost"}${String(req.res?.locals.stripeSimBase ?? "")}`;
  const control: StripeSimulatorControl = {
    store,
    now: () => store.nowSec(),
    setWebhookUrl: (url) => sender.setUrl(url),
    advanceClock: (s) => store.advance(s),
    endPeriodNow: (id) => store.endPeriodNow(id),
    setCard: (id, number) => {
      store.get("customer", id);
      store.cards.set(id, number.replace(/[\s-]/g, ""));
    },
    events: () => store.events.map((e) => ({ id: e.id, type: e.type as string, created: e.created as number, object: e, attempts: sender.attempts.get(e.id) ?? [] })),
    redeliver: (ids) => {
      const events = ids.map((id) => {
        const e = store.events.find((x) => x.id === id);
        if (!e) throw new Error(`Unknown event: ${id}`);
        return e;
      });
      sender.resend(events);
      return ids;
    },
    pauseWebhooks: () => sender.pause(),
    flushWebhooks: (order) => sender.flush(order),
    webhooksIdle: () => sender.idle(),
  };
  // The mount path, for hosted page URLs in replies (`url` of checkout and portal sessions).
  const stampBase = (req: Request, res: Response, next: NextFunction) => {
    res.locals.stripeSimBase = req.baseUrl;
    next();
  };
  const form = express.urlencoded({ extended: true, limit: "100kb", parameterLimit: 1000 });
  const api = express.Router();
  api.use(stampBase);
  api.use("/v1", requireKey(opts.secretKey), form, idempotency(new Map()), v1Router(store, baseUrl));
  const ui = express.Router();
  ui.use("/sim", stripeControlRouter(control));
  ui.use(form, pagesRouter(store));
  const router = express.Router();
  router.use(api, ui);
  return Object.assign(router, control, { api, ui, stop: () => sender.stop() });
}

export interface StartStripeSimulatorOptions extends StripeSimulatorOptions {
  /** TCP port; 0 = random (default 0). */
  port?: number;
  /** Listen address (default 127.0.0.1). */
  host?: string;
}

/**
 * Runs the simulator on its own HTTP server.
 * @returns `url` (e.g. "http://127.0.0.1:4002"), `port`, the simulator (controls) and `close()`
 */
export async function startStripeSimulator(opts: StartStripeSimulatorOptions = {}): Promise<{ url: string; port: number; sim: StripeSimulator; close(): Promise<void> }> {
  const app = express();
  app.disable("x-powered-by");
  const sim = createStripeSimulator(opts);
  app.use(sim);
  const server = await listenApp(app, { ...opts, onClose: () => sim.stop() });
  return { ...server, sim };
}

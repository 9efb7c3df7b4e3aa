/**
 * The embedded Stripe simulator (issue 9, DESIGN.md §4b): with no Stripe key configured and outside
 * production, boot runs server/stripe-sim in this process so a newcomer can subscribe end to end.
 * - Its `/v1` API listens on its own loopback port (the SDK reaches `/v1` only at the root of a host,
 *   and the app's root is the product's): the app's SDK client is pointed there (`stripeEmbedded.apiBase`).
 * - Its hosted checkout and portal pages (and the loopback-only control API `/sim/*`) are mounted on
 *   the app at `/stripe-sim`, so the browser stays on the product's origin.
 * - Events are delivered, signed, to the app's own `/api/webhooks/stripe` over loopback.
 * - Its state persists in `DATA_DIR/stripe-sim-state.json` (customers and subscriptions survive a
 *   restart, as the database's ids of them do), and its clock is walked every minute so renewals
 *   and period-end cancellations happen on time.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import express from "express";
import type { StripeEmbedded } from "../app/services/platform/config.server";
import { listenApp } from "./listen";
import { createStripeSimulator } from "./stripe-sim";
import type { StoreSnapshot } from "./stripe-sim/store";

/** Where the hosted pages live on the app. */
export const STRIPE_SIM_MOUNT = "/stripe-sim";
/** How often the simulator's clock is walked (renewals) and its state saved, ms. */
const TICK_MS = 60_000;
const SAVE_MS = 5_000;

/**
 * Starts the simulator and mounts its pages on `app`.
 * @param appPort the app's bound port (webhooks go to it over loopback)
 * @param appUrl the app's public URL (hosted page links)
 * @returns the SDK settings for config (`stripeEmbedded`) and `close()` (saves the state, stops listening)
 */
export async function mountStripeSimulator(
  app: express.Express,
  opts: { appPort: number; appUrl: string; statePath: string },
): Promise<{ embedded: StripeEmbedded; close(): Promise<void> }> {
  const secretKey = `sk_test_embedded_${randomBytes(12).toString("hex")}`;
  const webhookSecret = `whsec_${randomBytes(24).toString("hex")}`;
  const sim = createStripeSimulator({
    secretKey,
    webhookSecret,
    webhookUrl: `http://127.0.0.1:${opts.appPort}/api/webhooks/stripe`,
    publicUrl: `${opts.appUrl.replace(/\/$/, "")}${STRIPE_SIM_MOUNT}`,
  });
  const saved = readState(opts.statePath);
  if (saved) sim.store.restore(saved);

  const api = express();
  api.disable("x-powered-by");
  api.use(sim.api);
  const server = await listenApp(api, { host: "127.0.0.1", port: 0 });
  app.use(STRIPE_SIM_MOUNT, sim.ui);

  let lastSaved = saved ? JSON.stringify(saved) : "";
  const save = () => {
    const text = JSON.stringify(sim.store.snapshot());
    if (text === lastSaved) return;
    const tmp = `${opts.statePath}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, opts.statePath);
    lastSaved = text;
  };
  const clock = setInterval(() => sim.advanceClock(0), TICK_MS);
  const saver = setInterval(() => {
    try {
      save();
    } catch (err) {
      console.error("[stripe-sim] falha ao salvar o estado:", err);
    }
  }, SAVE_MS);
  clock.unref();
  saver.unref();
  sim.advanceClock(0);

  return {
    embedded: { apiBase: server.url, secretKey, webhookSecret },
    close: async () => {
      clearInterval(clock);
      clearInterval(saver);
      sim.stop();
      try {
        save();
      } catch (err) {
        console.error("[stripe-sim] falha ao salvar o estado:", err);
      }
      await server.close();
    },
  };
}

/** The saved state, or undefined when there is none or it does not parse (a fresh simulator then). */
function readState(statePath: string): StoreSnapshot | undefined {
  if (!existsSync(statePath)) return undefined;
  try {
    const s = JSON.parse(readFileSync(statePath, "utf8")) as StoreSnapshot;
    return Array.isArray(s.objects) && Array.isArray(s.events) ? s : undefined;
  } catch {
    console.error(`[stripe-sim] estado ilegível em ${statePath}: começando do zero.`);
    return undefined;
  }
}

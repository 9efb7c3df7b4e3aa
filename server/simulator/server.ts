/**
 * Entry points of the OANDA v20 simulator (DESIGN.md §4):
 * - `createSimulatorApp(opts)`: an Express router serving `/practice/v3/...`, `/live/v3/...` (REST
 *   and streams) and the control API `/sim/...` (local callers only; clock, users and injected
 *   broker faults, faults.ts), to mount in the main app
 *   (`OANDA_MODE=sim`, never in production).
 * - `startSimulator(opts)`: the same on its own HTTP server.
 * A 1 s real-time timer evaluates stops/targets even when no request comes in.
 */
import { randomUUID } from "node:crypto";
import express, { type Router } from "express";
import { listenApp } from "../listen";
import { controlRouter, localCallersOnly } from "./control";
import { faultMiddleware, faultRegistryFor, type FaultRegistry } from "./faults";
import { errorHandler, notFound, oandaHeaders } from "./http";
import { v3Router } from "./routes";
import type { MarketData } from "../../core/simulator/market-data";
import { Simulator } from "../../core/simulator/simulator";
import { loadMarketData } from "./load-market-data";
import { fileStateStore } from "./state-store";
import { ipRequestLimit, type IpCounts } from "./ip-limit";
import type { StreamRegistry, Timers } from "./stream";

export { Simulator, type SimulatorOptions } from "../../core/simulator/simulator";

export interface SimulatorAppOptions {
  /** Folder with `<INSTRUMENT>_<GRAN>.csv` files (read unless `market` is given). */
  dataDir?: string;
  /** Folder where the parsed candles are cached between boots (server/simulator/load-market-data.ts; the app passes DATA_DIR). */
  cacheDir?: string;
  /** Pre-loaded market data (shared between instances, e.g. in tests). */
  market?: MarketData;
  /** Sim seconds per real second (default 1). */
  speed?: number;
  /** RFC3339 data time at which the sim clock starts (default DEFAULT_START_AT). */
  startAt?: string;
  /** JSON file persisting broker state and the sim time (default none). */
  statePath?: string;
  /** Real-time source, epoch ms (default Date.now). */
  now?: () => number;
  /** Timer functions (default the global ones). */
  timers?: Timers;
  /** Use an existing simulator instead of creating one from the options. */
  sim?: Simulator;
  /** OANDA's REST limit per client IP (120 a second, ip-limit.ts); default none. */
  ipRequestsPerSecond?: number;
}

/**
 * A core Simulator wired to the machine: candles read from `dataDir`, wall-clock time, state in a JSON file.
 * @throws Error when neither `market` nor `dataDir` is given, the data is unreadable or the state file corrupt
 */
export function createSimulator(opts: SimulatorAppOptions): Simulator {
  if (!opts.market && !opts.dataDir) throw new Error("Simulator needs dataDir or market");
  return new Simulator({
    market: opts.market ?? loadMarketData(opts.dataDir!, opts.cacheDir ? { cacheDir: opts.cacheDir } : {}),
    now: opts.now ?? Date.now,
    ...(opts.speed !== undefined && { speed: opts.speed }),
    ...(opts.startAt !== undefined && { startAt: opts.startAt }),
    ...(opts.statePath && { store: fileStateStore(opts.statePath) }),
  });
}

/**
 * The mounted simulator: an Express router plus its simulator, its injected broker faults
 * (faults.ts, driven by `/sim/faults`) and a `stop()` that ends timers, streams and held requests.
 */
export type SimulatorApp = Router & { sim: Simulator; faults: FaultRegistry; stop(): void; openStreams(): number; ipCounts(): IpCounts };

/** Reply header naming the simulator instance and its clock generation (not sent by real OANDA). */
export const SIM_CLOCK_HEADER = "X-Sim-Clock";

/** Real-time ms between background trigger evaluations. */
export const TRIGGER_TICK_MS = 1000;

const globalTimers: Timers = {
  setInterval: (fn, ms) => {
    const h = setInterval(fn, ms);
    h.unref?.();
    return h;
  },
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

/**
 * Builds the simulator router. Mount it at the root of an app: it answers only under `/practice`,
 * `/live` and `/sim` (unknown paths there → 404 envelope).
 * @throws Error when the data folder or state file cannot be read
 */
export function createSimulatorApp(opts: SimulatorAppOptions): SimulatorApp {
  const sim = opts.sim ?? createSimulator(opts);
  const timers = opts.timers ?? globalTimers;
  const faults = faultRegistryFor(sim, opts.now ?? Date.now);
  const streams: StreamRegistry = { timers, open: new Set(), faults };
  const router = express.Router();
  const json = express.json({ type: () => true, limit: "1mb" });
  // `X-Sim-Clock`: this simulator and its clock's generation, on every OANDA reply; a jump of the
  // clock (POST /sim/clock) changes it, so quotes the app shares across accounts are read again.
  const clockTag = randomUUID().slice(0, 8);
  const simClockHeader: express.RequestHandler = (_req, res, next) => {
    res.setHeader(SIM_CLOCK_HEADER, `${clockTag}.${sim.clock.generation}`);
    next();
  };
  // OANDA's per-IP limit, when asked (ip-limit.ts): before anything answers, as OANDA's edge would.
  const ipLimit = opts.ipRequestsPerSecond ? ipRequestLimit(opts.ipRequestsPerSecond) : undefined;
  if (ipLimit) for (const prefix of ["/practice", "/live"]) router.use(prefix, ipLimit.middleware);
  for (const prefix of ["/practice", "/live"]) router.use(prefix, oandaHeaders, simClockHeader, json);
  // Injected broker faults (faults.ts) on the OANDA paths only, before any route handles them.
  router.use(faultMiddleware(faults));
  // The control API: local, same-origin callers only, no CORS (control.ts).
  router.use("/sim", localCallersOnly, json, controlRouter(sim, faults));
  router.use("/practice/v3", v3Router(sim, "practice", streams));
  router.use("/live/v3", v3Router(sim, "live", streams));
  for (const prefix of ["/practice", "/live", "/sim"]) router.use(prefix, notFound);
  router.use(["/practice", "/live", "/sim"], errorHandler);
  const tick = timers.setInterval(() => {
    try {
      sim.sync();
    } catch {
      // A failed background evaluation is retried on the next tick or request.
    }
  }, TRIGGER_TICK_MS);
  return Object.assign(router, {
    sim,
    faults,
    /** Pricing streams open right now (tests: the app shares one upstream, ADR 0017). */
    openStreams: () => streams.open.size,
    /** Requests per source address (answered, refused with 429) when `ipRequestsPerSecond` is set; else empty. */
    ipCounts: () => ipLimit?.counts() ?? {},
    stop() {
      timers.clearInterval(tick);
      faults.stop();
      for (const res of streams.open) res.end();
      streams.open.clear();
      sim.save();
    },
  });
}

export interface StartSimulatorOptions extends SimulatorAppOptions {
  /** TCP port; 0 = random (default 0). */
  port?: number;
  /** Listen address (default 127.0.0.1). */
  host?: string;
}

/**
 * Starts the simulator on its own HTTP server.
 * @returns `url` (e.g. "http://127.0.0.1:4001"; OANDA hosts are `${url}/practice` and `${url}/live`),
 *   the bound `port`, `close()` (ends streams, saves state, stops listening), the `sim` and its `faults`
 */
export async function startSimulator(
  opts: StartSimulatorOptions,
): Promise<{ url: string; port: number; close(): Promise<void>; sim: Simulator; faults: FaultRegistry; openStreams(): number; ipCounts(): IpCounts }> {
  const app = express();
  app.disable("x-powered-by");
  const simApp = createSimulatorApp(opts);
  app.use(simApp);
  const server = await listenApp(app, { ...opts, onClose: () => simApp.stop() });
  return { ...server, sim: simApp.sim, faults: simApp.faults, openStreams: simApp.openStreams, ipCounts: simApp.ipCounts };
}

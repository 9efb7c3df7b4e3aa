/**
 * Mounts the OANDA-protocol simulator (server/simulator over core/simulator) inside the app's Express server when
 * `OANDA_MODE=sim` (DESIGN.md §4): `/oanda-sim/practice/v3/...`, `/oanda-sim/live/v3/...` and the
 * control API `/oanda-sim/sim/...`. Broker state persists in `DATA_DIR/sim-state.json`; the parsed candles are
 * cached in `cacheDir` (DATA_DIR) so a restart does not parse the CSV files again.
 */
import type express from "express";
import { createSimulatorApp } from "./simulator/server";

/** Mounts the simulator; returns its close function (stops timers, flushes state). */
export async function mountSimulator(
  app: express.Express,
  opts: { mountPath: string; dataDir: string; speed: number; statePath: string; cacheDir?: string },
): Promise<() => Promise<void>> {
  const sim = createSimulatorApp({ dataDir: opts.dataDir, speed: opts.speed, statePath: opts.statePath, ...(opts.cacheDir && { cacheDir: opts.cacheDir }) });
  app.use(opts.mountPath, sim);
  return async () => sim.stop();
}

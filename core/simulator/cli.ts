/**
 * `npm run sim`: runs the OANDA simulator alone. Env: SIM_PORT (default 4001), SIM_SPEED (default 1),
 * SIM_DATA_DIR (default `data/`), SIM_HOST (default 127.0.0.1), SIM_START_AT (RFC3339 data time),
 * SIM_STATE_PATH (JSON state file; default none). Stops cleanly on SIGINT/SIGTERM.
 */
import { startSimulator } from "./server";

const speed = Number(process.env.SIM_SPEED ?? "1");
if (!Number.isFinite(speed) || speed < 0) {
  console.error("SIM_SPEED must be a number ≥ 0");
  process.exit(1);
}
const sim = await startSimulator({
  port: Number(process.env.SIM_PORT ?? "4001"),
  host: process.env.SIM_HOST ?? "127.0.0.1",
  dataDir: process.env.SIM_DATA_DIR ?? "data",
  speed,
  startAt: process.env.SIM_START_AT || undefined,
  statePath: process.env.SIM_STATE_PATH || undefined,
});
console.log(`OANDA simulator on ${sim.url} (practice: ${sim.url}/practice, live: ${sim.url}/live), sim time ${new Date(sim.sim.now()).toISOString()}, speed ${speed}`);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping simulator`);
  sim.close().then(() => process.exit(0), (err: unknown) => {
    console.error(err);
    process.exit(1);
  });
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));

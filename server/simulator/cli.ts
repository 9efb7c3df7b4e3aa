/**
 * `npm run sim`: runs the OANDA simulator alone. Env: SIM_PORT (default 4001), SIM_SPEED (default 1),
 * SIM_DATA_DIR (default `data/`), SIM_HOST (default 127.0.0.1), SIM_START_AT (RFC3339 data time),
 * SIM_STATE_PATH (JSON state file; default none), SIM_IP_REQUESTS_PER_SECOND (OANDA's REST limit per client IP,
 * 120 on OANDA; default none: ip-limit.ts). Stops cleanly on SIGINT/SIGTERM.
 */
import { z } from "zod";
import { readEnvironment } from "../env";
import { startSimulator } from "./server";

const schema = z.object({
  SIM_PORT: z.coerce.number().int().min(0).max(65535).default(4001),
  SIM_SPEED: z.coerce.number().finite().min(0, "SIM_SPEED must be a number ≥ 0").default(1),
  SIM_DATA_DIR: z.string().min(1).default("data"),
  SIM_HOST: z.string().min(1).default("127.0.0.1"),
  SIM_START_AT: z.string().min(1).optional(),
  SIM_STATE_PATH: z.string().min(1).optional(),
  SIM_IP_REQUESTS_PER_SECOND: z.coerce.number().int().min(1).optional(),
});

const env = Object.fromEntries(Object.entries(readEnvironment()).filter(([, v]) => v !== undefined && v !== ""));
const parsed = schema.safeParse(env);
if (!parsed.success) {
  console.error(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n"));
  process.exit(1);
}
const cfg = parsed.data;
const sim = await startSimulator({
  port: cfg.SIM_PORT,
  host: cfg.SIM_HOST,
  dataDir: cfg.SIM_DATA_DIR,
  speed: cfg.SIM_SPEED,
  startAt: cfg.SIM_START_AT,
  statePath: cfg.SIM_STATE_PATH,
  ...(cfg.SIM_IP_REQUESTS_PER_SECOND && { ipRequestsPerSecond: cfg.SIM_IP_REQUESTS_PER_SECOND }),
});
console.log(`OANDA simulator on ${sim.url} (practice: ${sim.url}/practice, live: ${sim.url}/live), sim time ${new Date(sim.sim.now()).toISOString()}, speed ${cfg.SIM_SPEED}`);

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

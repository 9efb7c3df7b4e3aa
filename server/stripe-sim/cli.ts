/**
 * Runs the Stripe simulator alone:
 * `node --import tsx server/stripe-sim/cli.ts --port 4002 --webhook-url http://127.0.0.1:3000/api/webhooks/stripe --webhook-secret whsec_…`
 * (also `--host`, default 127.0.0.1, and `--secret-key`, default any `sk_test_…`). Flags only, no
 * environment (server/env.ts is read by the app's entry points). Stops cleanly on SIGINT/SIGTERM.
 */
import { parseArgs } from "node:util";
import { startStripeSimulator } from "./index";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "4002" },
    host: { type: "string", default: "127.0.0.1" },
    "webhook-url": { type: "string" },
    "webhook-secret": { type: "string" },
    "secret-key": { type: "string" },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error("--port must be an integer 0–65535");
  process.exit(1);
}
if (values["webhook-url"] && !values["webhook-secret"]) {
  console.error("--webhook-url needs --webhook-secret");
  process.exit(1);
}
const sim = await startStripeSimulator({
  port,
  host: values.host,
  webhookUrl: values["webhook-url"],
  webhookSecret: values["webhook-secret"],
  secretKey: values["secret-key"],
});
console.log(`Stripe simulator on ${sim.url} (API ${sim.url}/v1, control ${sim.url}/sim), webhooks → ${values["webhook-url"] ?? "(none)"}`);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping Stripe simulator`);
  sim.close().then(() => process.exit(0), (err: unknown) => {
    console.error(err);
    process.exit(1);
  });
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));

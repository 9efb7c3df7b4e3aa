/**
 * The simulator's control API (DESIGN.md §4), for tests and demos; no authentication, so never
 * expose the simulator publicly.
 * - `POST /sim/users {environment: "practice"|"live", accounts?: [{currency, balance}]}` → 201
 *   `{token, environment, accounts: [{id, currency, balance}]}` (default one USD account, 100000).
 * - `POST /sim/clock {speed?, advanceSeconds?}` → `{now, speed}` (now RFC3339); `GET /sim/clock` reads it.
 */
import express, { type Router } from "express";
import { z } from "zod";
import { SimHttpError } from "../../core/simulator/accounts";
import { methodNotAllowed, sendJson } from "./http";
import type { Simulator } from "../../core/simulator/simulator";

const UserBody = z.object({
  environment: z.enum(["practice", "live"]),
  accounts: z.array(z.object({
    currency: z.string(),
    balance: z.union([z.string(), z.number()]).transform(String),
  })).optional(),
});

const ClockBody = z.object({
  speed: z.number().finite().min(0).optional(),
  advanceSeconds: z.number().finite().min(0).optional(),
});

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body ?? {});
  if (!r.success) {
    const path = r.error.issues[0]?.path.join(".") ?? "";
    throw new SimHttpError(400, { errorMessage: `Invalid value specified for '${path}'` });
  }
  return r.data;
}

/** Router for `/sim/*`. */
export function controlRouter(sim: Simulator): Router {
  const r = express.Router();
  r.route("/users").post((req, res) => {
    const body = parse(UserBody, req.body);
    const user = sim.createUser(body.environment, body.accounts);
    sendJson(req, res, 201, {
      token: user.token, environment: user.environment,
      accounts: user.accountIDs.map((id) => {
        const a = sim.account(id)!;
        return { id, currency: a.currency, balance: a.balance };
      }),
    });
  }).all(methodNotAllowed);
  r.route("/clock")
    .get((req, res) => {
      sim.sync();
      sendJson(req, res, 200, { now: new Date(sim.now()).toISOString().replace(/\.(\d{3})Z$/, ".$1000000Z"), speed: sim.clock.speed });
    })
    .post((req, res) => sendJson(req, res, 200, sim.setClock(parse(ClockBody, req.body))))
    .all(methodNotAllowed);
  return r;
}

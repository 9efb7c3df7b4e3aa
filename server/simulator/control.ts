/**
 * The simulator's control API (DESIGN.md §4), for tests and demos. It has no authentication, so it
 * answers local callers only (issue 8 item 3, `localCallersOnly`): a loopback socket, no proxy
 * header, and no cross-origin browser request — so neither the network nor a web page open in the
 * developer's browser can mint broker users or move the clock. No CORS headers are sent here (the
 * OANDA-like `/practice` and `/live` keep OANDA's `Access-Control-Allow-Origin: *`).
 * - `POST /sim/users {environment: "practice"|"live", accounts?: [{currency, balance}]}` → 201
 *   `{token, environment, accounts: [{id, currency, balance}]}` (default one USD account, 100000).
 * - `POST /sim/clock {speed?, advanceSeconds?}` → `{now, speed}` (now RFC3339); `GET /sim/clock` reads it.
 *   `advanceSeconds` ≤ `MAX_ADVANCE_SECONDS` (31 days) and `speed` ≤ `MAX_SPEED` per call, else 400;
 *   the jump is walked one simulated day at a time, yielding to the event loop between days, and
 *   concurrent clock calls run one after the other.
 * - `POST /sim/accounts/{id}/instruments {minimumTradeSize?: {EUR_USD: "100000", …}, offered?: ["EUR_USD", …] | null}`
 *   → `{id, minimumTradeSize, offered}`: the account's minimum order size per instrument as GET A/instruments
 *   reports it (default "1"; issue 22 broker-rule check) and the instruments it offers (GET A/instruments lists
 *   only these, as a real account offers a subset; null = all); 404 for an unknown account.
 * - `POST /sim/faults`, `GET /sim/faults`, `DELETE /sim/faults[/{id}]`: broker fault injection on the
 *   OANDA paths (5xx, 429 with Retry-After, timeouts, dropped connections, stalled streams, revoked
 *   token, malformed 2xx body), scoped to a token/account/path; see faults.ts.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { z } from "zod";
import { SimHttpError } from "../../core/simulator/accounts";
import { rfc3339 } from "../../core/simulator/time";
import { faultJSON, parseFaultSpec, type FaultRegistry } from "./faults";
import { methodNotAllowed, newRequestId, sendJson } from "./http";
import type { Simulator } from "../../core/simulator/simulator";

/** Largest `advanceSeconds` of one `POST /sim/clock`: 31 days. */
export const MAX_ADVANCE_SECONDS = 31 * 86_400;
/** Largest clock `speed` (sim seconds per real second), as for SIM_SPEED. */
export const MAX_SPEED = 100_000;
/** Sim seconds evaluated between two yields to the event loop while advancing: one day. */
export const ADVANCE_CHUNK_SECONDS = 86_400;

const UserBody = z.object({
  environment: z.enum(["practice", "live"]),
  accounts: z.array(z.object({
    currency: z.string(),
    balance: z.union([z.string(), z.number()]).transform(String),
  })).optional(),
});

const INSTRUMENT = z.string().regex(/^[A-Z]{3}_[A-Z]{3}$/);
const InstrumentsBody = z
  .object({
    minimumTradeSize: z.record(INSTRUMENT, z.string().regex(/^\d+(\.\d+)?$/)).optional(),
    /** The instruments the account offers (GET …/instruments lists only these); null = every one the market has. */
    offered: z.array(INSTRUMENT).min(1).nullable().optional(),
  })
  .refine((b) => b.minimumTradeSize !== undefined || b.offered !== undefined, { message: "minimumTradeSize or offered is required" });

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

/** True for a loopback socket address (IPv4 127/8, IPv6 ::1, IPv4-mapped 127/8). */
export function isLoopbackAddress(address: string | undefined): boolean {
  const a = (address ?? "").replace(/^::ffff:/i, "");
  return a === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/**
 * Middleware guarding the control API: 403 `{errorMessage}` unless the caller is local — the
 * socket's own address is loopback (not `req.ip`, which proxies can set), the request was not
 * relayed by a proxy (`Forwarded`, `X-Forwarded-For`, `X-Real-IP`), and a browser request is
 * same-origin (`Origin`, when sent, names this host; `Sec-Fetch-Site` is `same-origin` or `none`).
 */
export function localCallersOnly(req: Request, res: Response, next: NextFunction): void {
  res.setHeader("RequestID", newRequestId());
  const proxied = ["forwarded", "x-forwarded-for", "x-real-ip"].some((h) => req.headers[h] !== undefined);
  if (!isLoopbackAddress(req.socket.remoteAddress) || proxied) {
    sendJson(req, res, 403, { errorMessage: "The simulator control API only answers local callers (loopback, not through a proxy)." });
    return;
  }
  const site = req.headers["sec-fetch-site"];
  let sameOrigin = site === undefined || site === "same-origin" || site === "none";
  const origin = req.headers.origin;
  if (origin !== undefined) {
    try {
      sameOrigin &&= new URL(origin).host === req.headers.host;
    } catch {
      sameOrigin = false; // `Origin: null` or garbage
    }
  }
  if (!sameOrigin) {
    sendJson(req, res, 403, { errorMessage: "Cross-origin requests to the simulator control API are refused." });
    return;
  }
  next();
}

/**
 * Moves the simulator clock like `Simulator.setClock`, but walks a forward jump one
 * `ADVANCE_CHUNK_SECONDS` slice at a time (stops and targets evaluated per slice), yielding to the
 * event loop between slices, so a month's jump neither blocks other requests nor builds a month of
 * price path in memory. The new speed applies after the jump.
 * @param advanceSeconds sim seconds to jump forward, 0 ≤ advanceSeconds ≤ MAX_ADVANCE_SECONDS
 * @returns `{now, speed}` with now in RFC3339
 */
export async function advanceClock(sim: Simulator, opts: { speed?: number; advanceSeconds?: number }): Promise<{ now: string; speed: number }> {
  let left = opts.advanceSeconds ?? 0;
  sim.sync();
  while (left > 0) {
    const step = Math.min(left, ADVANCE_CHUNK_SECONDS);
    sim.clock.adjust({ advanceSeconds: step });
    sim.sync();
    left -= step;
    if (left > 0) await nextTurn();
  }
  if (opts.speed !== undefined) sim.clock.adjust({ speed: opts.speed });
  sim.save();
  return { now: rfc3339(sim.clock.now()), speed: sim.clock.speed };
}

/**
 * Router for `/sim/*` (mount behind `localCallersOnly` and a JSON body parser). `faults` receives the
 * faults of `/sim/faults` (without it, that path answers 404).
 */
export function controlRouter(sim: Simulator, faults?: FaultRegistry): Router {
  const r = express.Router();
  if (faults) {
    r.route("/faults")
      .get((req, res) => sendJson(req, res, 200, { faults: faults.list().map(faultJSON) }))
      .post((req, res) => sendJson(req, res, 201, faultJSON(faults.add(parseFaultSpec(req.body)))))
      .delete((req, res) => sendJson(req, res, 200, { cleared: faults.clear() }))
      .all(methodNotAllowed);
    r.route("/faults/:id")
      .delete((req, res) => sendJson(req, res, 200, { cleared: faults.clear(String(req.params.id)) }))
      .all(methodNotAllowed);
  }
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
  r.route("/accounts/:id/instruments").post((req, res) => {
    const body = parse(InstrumentsBody, req.body);
    const a = sim.account(String(req.params.id));
    if (!a) throw new SimHttpError(404, { errorMessage: "The Account specified does not exist." });
    if (body.offered?.some((i) => !sim.market.has(i))) throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'offered'" });
    if (body.minimumTradeSize) a.minimumTradeSize = { ...a.minimumTradeSize, ...body.minimumTradeSize };
    if (body.offered !== undefined) a.offered = body.offered ?? undefined;
    sim.save();
    sendJson(req, res, 200, { id: a.id, minimumTradeSize: a.minimumTradeSize ?? {}, offered: a.offered ?? sim.market.instruments });
  }).all(methodNotAllowed);
  // Clock changes run one at a time (a jump yields between days).
  let clockQueue: Promise<unknown> = Promise.resolve();
  r.route("/clock")
    .get((req, res) => {
      sim.sync();
      sendJson(req, res, 200, { now: new Date(sim.now()).toISOString().replace(/\.(\d{3})Z$/, ".$1000000Z"), speed: sim.clock.speed });
    })
    .post((req, res, next) => {
      const body = parse(ClockBody, req.body);
      if ((body.advanceSeconds ?? 0) > MAX_ADVANCE_SECONDS)
        throw new SimHttpError(400, { errorMessage: `Invalid value specified for 'advanceSeconds': at most ${MAX_ADVANCE_SECONDS} (31 days) per call` });
      if ((body.speed ?? 0) > MAX_SPEED) throw new SimHttpError(400, { errorMessage: `Invalid value specified for 'speed': at most ${MAX_SPEED}` });
      const run = clockQueue.then(() => advanceClock(sim, body));
      clockQueue = run.catch(() => {});
      run.then((out) => sendJson(req, res, 200, out), next);
    })
    .all(methodNotAllowed);
  return r;
}

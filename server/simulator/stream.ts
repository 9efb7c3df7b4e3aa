/**
 * GET <stream>/v3/accounts/{id}/pricing/stream (PROTOCOL.md §7.6): NDJSON, one snapshot price per
 * instrument first (unless `snapshot=false`), then at most one price per instrument per 250 ms of
 * real time (≤ 4/s) when its bid/ask changed, and a HEARTBEAT every 5 s of real time. When an
 * instrument's market closes, one last `tradeable:false` price, then only heartbeats.
 * Stops/targets are evaluated on each tick (sim.sync()). While a `stall_stream` fault covers the
 * stream (faults.ts), nothing is written — no price, no heartbeat — and the ticks resume after it.
 */
import type { Request, Response } from "express";
import type { Simulator } from "../../core/simulator/simulator";
import type { AccountState } from "../../core/simulator/state";
import { rfc3339, toUnixTimes } from "../../core/simulator/time";
import type { FaultContext, FaultRegistry } from "./faults";
import { wantsUnix } from "./http";

/** Timer functions (injected so core code does not reach for globals; tests may fake them). */
export interface Timers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** Open streams, so a server shutdown can end them; `timers` drives their ticks; `faults` may stall them. */
export interface StreamRegistry {
  timers: Timers;
  open: Set<Response>;
  faults?: FaultRegistry;
}

/** Real-time ms between price ticks and between heartbeats. */
export const PRICE_TICK_MS = 250;
export const HEARTBEAT_MS = 5000;

/** Handles one streaming request after authentication and instrument validation. */
export function priceStreamHandler(sim: Simulator, reg: StreamRegistry, acct: AccountState, instruments: string[], req: Request, res: Response): void {
  const unix = wantsUnix(req);
  const ctx = res.locals.faultContext as FaultContext | undefined;
  const stalled = () => ctx !== undefined && reg.faults !== undefined && reg.faults.stalls(ctx);
  const write = (obj: unknown) => res.write(`${JSON.stringify(unix ? toUnixTimes(obj) : obj)}\n`);
  res.status(200);
  res.setHeader("Content-Type", "application/octet-stream");
  res.setHeader("Cache-Control", "no-cache");
  res.flushHeaders();
  reg.open.add(res);
  const last = new Map<string, { bid: string; ask: string; tradeable: boolean }>();
  /** mode: "snapshot" writes every instrument, "prime" records without writing, "tick" writes changes. */
  const send = (mode: "snapshot" | "prime" | "tick") => {
    if (stalled()) return;
    const force = mode === "snapshot";
    const now = sim.sync();
    for (const inst of instruments) {
      const qt = sim.pricing.quote(inst, now);
      const key = { bid: qt.bid.toFixed(), ask: qt.ask.toFixed(), tradeable: qt.tradeable };
      const prev = last.get(inst);
      const changed = !prev || (qt.tradeable && (prev.bid !== key.bid || prev.ask !== key.ask)) || prev.tradeable !== qt.tradeable;
      if (force || changed) {
        if (mode !== "prime" && (force || qt.tradeable || prev?.tradeable)) write(sim.pricing.clientPrice(qt, acct.currency, now));
        last.set(inst, key);
      }
    }
  };
  send(req.query.snapshot === "false" ? "prime" : "snapshot");
  const tick = reg.timers.setInterval(() => send("tick"), PRICE_TICK_MS);
  const hb = reg.timers.setInterval(() => {
    if (!stalled()) write({ type: "HEARTBEAT", time: rfc3339(sim.now()) });
  }, HEARTBEAT_MS);
  const stop = () => {
    reg.timers.clearInterval(tick);
    reg.timers.clearInterval(hb);
    reg.open.delete(res);
  };
  res.on("close", stop);
  req.on("close", stop);
}

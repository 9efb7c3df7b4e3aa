/**
 * The backtest worker pool (issue 24, ADR 0039; app/services/backtest/worker-pool.server.ts): a run
 * computed in a worker thread gives exactly the in-process result (trades, statistics, curves, the
 * baseline) with the economic calendar sent across; at most `size` runs compute at once, the rest
 * wait their turn; the threads run at a lower CPU priority than the main thread (Linux); a run past its wall-time budget is stopped with BacktestTimeoutError (its thread ended,
 * its slot freed).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseCalendarCsv } from "../../../core/calendar";
import { defaultSettings } from "../../../core/settings";
import { computeRun, type ComputeRequest } from "../../../app/services/backtest/compute.server";
import { BacktestPool, BacktestTimeoutError, backtestWorkerFile } from "../../../app/services/backtest/worker-pool.server";

const root = path.resolve(import.meta.dirname, "../../..");
const calendarFile = path.join(root, "data/calendar/ff_high_impact_2025-07_2026-01.csv");

function request(over: Partial<ComputeRequest["params"]> = {}): ComputeRequest {
  const settings = defaultSettings();
  settings.aiSettings.edgeOverrides = ["EUR_USD", "GBP_USD"];
  return {
    params: { source: "shipped", instruments: ["EUR_USD", "GBP_USD"], from: "2026-01-05", to: "2026-01-30", initialBalance: "10000", settings, accountCurrency: "USD", seeds: 1, ...over },
    candles: { kind: "shipped", dir: path.join(root, "data") },
    calendarEvents: parseCalendarCsv(readFileSync(calendarFile, "utf8"), calendarFile),
  };
}

const pools: BacktestPool[] = [];
const pool = (size: number, timeoutMs: number) => {
  const p = new BacktestPool({ size, timeoutMs, file: backtestWorkerFile() });
  pools.push(p);
  return p;
};

afterAll(async () => {
  for (const p of pools) await p.close();
});

describe("backtest worker pool", () => {
  it("finds the TypeScript worker entry next to the source", () => {
    expect(backtestWorkerFile().pathname.endsWith("app/services/backtest/compute.worker.ts")).toBe(true);
  });

  it("computes in a worker thread exactly what the run computes in process", { timeout: 120_000 }, async () => {
    const req = request();
    const progress: number[] = [];
    const inWorker = await pool(1, 110_000).withSlot((compute) => compute(req, (pct) => void progress.push(pct)));
    const inProcess = await computeRun(req);
    const { coreMs: _a, ...w } = inWorker.result;
    const { coreMs: _b, ...p } = inProcess.result;
    expect(p.trades.length).toBeGreaterThan(0);
    expect(w).toEqual(p);
    expect(w.stats.netPnl).toBe(p.stats.netPnl);
    // Progress came across, in order, up to the end of the last seed.
    expect(progress.length).toBeGreaterThan(10);
    expect([...progress].sort((x, y) => x - y)).toEqual(progress);
    expect(progress.at(-1)).toBeCloseTo(100, 5);
  });

  it.skipIf(process.platform !== "linux")("runs its threads at a lower CPU priority than the main thread (nice 10, Linux)", { timeout: 60_000 }, async () => {
    const p = pool(1, 50_000);
    await p.withSlot((compute) => compute(request({ instruments: ["EUR_USD"], to: "2026-01-06" })));
    const nice = (task: string) => Number(readFileSync(`/proc/self/task/${task}/stat`, "utf8").split(") ")[1]!.split(" ")[16]);
    const tasks = readdirSync("/proc/self/task");
    expect(nice(String(process.pid))).toBe(0);
    // The parked thread of the run is one of this process's tasks, at nice 10.
    expect(tasks.some((t) => nice(t) === 10)).toBe(true);
  });

  it("computes at most `size` runs at once; the next waits for a free slot", { timeout: 120_000 }, async () => {
    const p = pool(1, 110_000);
    const req = request({ instruments: ["EUR_USD"], seeds: 1, to: "2026-01-12" });
    let inside = 0;
    let most = 0;
    const one = () =>
      p.withSlot(async (compute) => {
        most = Math.max(most, ++inside);
        try {
          return await compute(req);
        } finally {
          inside--;
        }
      });
    const first = one();
    const second = one();
    expect(p.stats()).toMatchObject({ active: 1, waiting: 1 });
    const [a, b] = await Promise.all([first, second]);
    expect(most).toBe(1);
    expect(b.result.stats).toEqual(a.result.stats);
    expect(p.stats()).toMatchObject({ active: 0, waiting: 0, idleThreads: 1 });
  });

  it("stops a run past its wall-time budget: its thread is ended and its slot freed", { timeout: 120_000 }, async () => {
    const p = pool(1, 300);
    const started = performance.now();
    await expect(p.withSlot((compute) => compute(request({ seeds: 8 })))).rejects.toBeInstanceOf(BacktestTimeoutError);
    expect(performance.now() - started).toBeLessThan(5_000);
    // The stopped thread is not kept for the next run; the slot is free for it.
    expect(p.stats()).toEqual({ active: 0, waiting: 0, idleThreads: 0 });
  });

  it("fails with the worker's Portuguese message when the candles cannot be read", { timeout: 60_000 }, async () => {
    const req: ComputeRequest = { ...request(), candles: { kind: "shipped", dir: path.join(root, "nao-existe") } };
    await expect(pool(1, 50_000).withSlot((compute) => compute(req))).rejects.toThrow(/Pasta de dados não encontrada/);
  });
});

/**
 * The backtest CPU budget of a process (issue 24, ADR 0039): runs are computed in worker threads
 * (node:worker_threads, compute.worker.ts), never on the event loop that serves the pages and ticks
 * the bots. At most `size` runs compute at once (config BACKTEST_CONCURRENCY, default half the cores,
 * 1 on 2 cores); more callers wait in a FIFO queue for a slot. A run that computes longer than
 * `timeoutMs` (config BACKTEST_TIMEOUT_SEC) has its thread terminated and fails with
 * `BacktestTimeoutError`. A thread that finished a run stays parked (unref'd: it does not keep the
 * process alive) for the next one, with its candle caches.
 *
 * The worker's file: `<BUILD_DIR>/backtest-worker.js` next to the production bundle (package.json
 * build:server bundles it beside server-entry.js), else the TypeScript source beside this module (dev
 * and tests, loaded through tsx's API).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ComputeOutput, ComputeRequest } from "./compute.server";
import type { WorkerMessage } from "./compute.worker";
import { config } from "../platform/config.server";

/** Where the worker entry may be, relative to this module: the bundle's neighbour (server-entry.js, or the Remix server build one folder down), then the source. */
const WORKER_FILES = ["./backtest-worker.js", "../backtest-worker.js", "./compute.worker.ts"];

/**
 * The worker entry file for a module at `base` (see WORKER_FILES).
 * @throws Error when none exists (a build without the worker bundle).
 */
export function backtestWorkerFile(base: string = import.meta.url): URL {
  for (const name of WORKER_FILES) {
    const url = new URL(name, base);
    if (existsSync(fileURLToPath(url))) return url;
  }
  throw new Error(`Arquivo do worker de backtest não encontrado perto de ${base} (rode npm run build).`);
}

/** tsx's ESM API (`tsImport`) as a URL when this module can resolve it (tsx, Node), else the bare name. */
function tsxApi(): string {
  try {
    return import.meta.resolve("tsx/esm/api");
  } catch {
    return "tsx/esm/api";
  }
}

/** A run that computed past its wall-time budget; `seconds` is the budget. */
export class BacktestTimeoutError extends Error {
  constructor(readonly seconds: number) {
    super(`O backtest passou do limite de ${seconds} s e foi interrompido.`);
    this.name = "BacktestTimeoutError";
  }
}

/** Computes one run on the slot's thread; progress (0–100) is delivered in order and awaited before the result. */
export type ComputeOnWorker = (req: ComputeRequest, onProgress?: (pct: number) => void | Promise<void>) => Promise<ComputeOutput>;

export interface BacktestPoolOptions {
  /** Runs computing at once (≥ 1). */
  size: number;
  /** Wall-time budget of one run's compute, ms. */
  timeoutMs: number;
  /** The worker entry (default backtestWorkerFile()). */
  file?: URL;
}

/** A bounded set of backtest worker threads with a FIFO queue beyond it (see the module's comment). */
export class BacktestPool {
  private readonly idle: Worker[] = [];
  private readonly waiting: (() => void)[] = [];
  private active = 0;
  private closed = false;

  constructor(private readonly opts: BacktestPoolOptions) {
    if (!(opts.size >= 1)) throw new Error("BacktestPool: size ≥ 1");
  }

  /** Runs holding a slot, and callers waiting for one. */
  stats(): { active: number; waiting: number; idleThreads: number } {
    return { active: this.active, waiting: this.waiting.length, idleThreads: this.idle.length };
  }

  /**
   * Waits for a free slot (FIFO), then calls `fn` with the slot's compute; the slot is freed when
   * `fn` settles. Work outside the compute (claiming the row, fetching broker candles, storing the
   * result) runs on the main thread inside the slot.
   */
  async withSlot<T>(fn: (compute: ComputeOnWorker) => Promise<T>): Promise<T> {
    if (this.active < this.opts.size) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve)); // the releaser hands its slot over
    try {
      return await fn((req, onProgress) => this.compute(req, onProgress));
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** Terminates the parked threads (a running one ends with its run). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((w) => w.terminate()));
  }

  private spawn(): Worker {
    const file = this.opts.file ?? backtestWorkerFile();
    if (!file.pathname.endsWith(".ts")) return new Worker(file);
    // The TypeScript source (dev, tests): Node 20 does not run a worker's `--import tsx`, so a small
    // script loads the entry through tsx's API (the package resolved here, else from the working directory).
    const entry = JSON.stringify(file.href);
    return new Worker(`import(${JSON.stringify(tsxApi())}).then(({ tsImport }) => tsImport(${entry}, ${entry}))`, { eval: true });
  }

  private park(worker: Worker): void {
    if (this.closed) {
      void worker.terminate();
      return;
    }
    worker.unref();
    this.idle.push(worker);
  }

  private compute(req: ComputeRequest, onProgress?: (pct: number) => void | Promise<void>): Promise<ComputeOutput> {
    const worker = this.idle.pop() ?? this.spawn();
    worker.ref();
    return new Promise<ComputeOutput>((resolve, reject) => {
      let progress: Promise<unknown> = Promise.resolve();
      const stop = () => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
      };
      const timer = setTimeout(() => {
        stop();
        void worker.terminate();
        reject(new BacktestTimeoutError(Math.round(this.opts.timeoutMs / 1000)));
      }, this.opts.timeoutMs);
      const onMessage = (m: WorkerMessage) => {
        if (m.type === "progress") {
          if (onProgress) progress = progress.then(() => onProgress(m.pct)).catch(() => undefined);
          return;
        }
        stop();
        this.park(worker);
        void progress.then(() => (m.type === "done" ? resolve(m.output) : reject(new Error(m.message))));
      };
      const onError = (err: Error) => {
        stop();
        void worker.terminate();
        reject(err);
      };
      const onExit = (code: number) => {
        stop();
        reject(new Error(`O processo de cálculo do backtest terminou inesperadamente (código ${code}).`));
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      worker.postMessage(req);
    });
  }
}

let shared: BacktestPool | undefined;

/** This process's pool, sized from config (BACKTEST_CONCURRENCY, BACKTEST_TIMEOUT_SEC) on first use. */
export function backtestPool(): BacktestPool {
  const cfg = config();
  return (shared ??= new BacktestPool({ size: cfg.BACKTEST_CONCURRENCY, timeoutMs: cfg.BACKTEST_TIMEOUT_SEC * 1000 }));
}

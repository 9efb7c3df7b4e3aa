/**
 * The bot-tick scheduler (issue 13, ADR 0024). Each `WORKERS=on` process polls the `bots` table and
 * claims the bots that are due (`next_tick_at <= now()`) in batches, one statement per poll
 * (`FOR UPDATE SKIP LOCKED`: concurrent claimers of every process get disjoint bots), and runs their
 * ticks with at most `concurrency` at once. A claim only takes what the free slots can run, so the
 * rest stays due for the other processes.
 *
 * The schedule is fixed: a claim moves `next_tick_at` to the claimed slot + one interval (skipping
 * whole missed intervals, never in the past), so a bot ticks every `interval_sec` whatever its ticks
 * take, and a bot claimed by a process that died before running it is due again within one interval.
 * A tick that throws (a transient broker failure) makes its bot due again `TICK_RETRY_DELAY_SEC`
 * after the failure, when that is sooner. Overlap is still prevented by the user's lock taken by
 * `runTick` (a tick whose lock is held elsewhere is skipped), and each tick has its own deadline
 * (`TICK_TIMEOUT_SEC`), so a slow broker holds one slot, never the other bots' ticks.
 */
import { runTick } from "./tick-runner.server";
import { logger } from "../platform/logger.server";
import { metrics } from "../platform/metrics.server";
import { claimDueTicks, makeTickDue, type ClaimedTick } from "./tick-due.server";

/** Delay of the next tick after a transient broker failure (runTick threw), when shorter than the bot's interval. */
export const TICK_RETRY_DELAY_SEC = 10;
/**
 * Poll period when the last claim found no more due bots than it could take, ms. A due bot waits up to this for
 * its claim, so it is the floor of the schedule lag: 500 ms keeps an idle process's lag p99 under issue 24's 1 s
 * goal (at 1 s the poll alone put it at 0.97-1.03 s in bench:bots), for one more claim statement a second.
 */
export const POLL_MS = 500;
/** Shortest gap between two claims while due bots are left (slots freed by finished ticks), ms. */
export const BACKLOG_POLL_MS = 100;

/** What a scheduler runs for one claimed slot (trading/tick-runner.server.ts `runTick` in the product). */
export type TickRunner = (userId: string) => Promise<unknown>;

export interface TickSchedulerOptions {
  /** Ticks run at once by this process (config `TICK_CONCURRENCY`). */
  concurrency: number;
  /** The tick itself; `runTick` unless a test counts claims. */
  run?: TickRunner;
  /** Poll period when idle, ms (`POLL_MS`). */
  pollMs?: number;
}

/**
 * One process's claimer and its bounded set of running ticks. `start()` begins polling; `stop()`
 * stops claiming and waits (bounded) for the running ticks.
 */
export class TickScheduler {
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<ClaimedTick[]> | undefined;
  private stopped = true;
  private lastPoll = 0;
  private backlog = false;
  private readonly run: TickRunner;
  private readonly pollMs: number;

  constructor(private readonly opts: TickSchedulerOptions) {
    this.run = opts.run ?? runTick;
    this.pollMs = opts.pollMs ?? POLL_MS;
  }

  /** Ticks running now in this process. */
  get active(): number {
    return this.running.size;
  }

  /** Starts polling (a first claim at once). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops claiming and waits for the running ticks, at most `timeoutMs`; returns how many were still running. */
  async stop(timeoutMs = 20_000): Promise<number> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.polling; // a claim in flight starts its ticks: they are waited for too
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.running]), new Promise((r) => (timeout = setTimeout(r, timeoutMs)))]);
    clearTimeout(timeout);
    return this.running.size;
  }

  /**
   * One claim for the free slots and their ticks started; nothing when a claim is in flight. Returns
   * the claimed slots (the polling loop calls it; a test may drive a scheduler it never started).
   */
  async poll(): Promise<ClaimedTick[]> {
    if (this.polling) return [];
    this.polling = this.claim();
    try {
      return await this.polling;
    } finally {
      this.polling = undefined;
    }
  }

  private async claim(): Promise<ClaimedTick[]> {
    this.lastPoll = Date.now();
    try {
      const free = this.opts.concurrency - this.running.size;
      if (free <= 0) return []; // every slot busy: a finishing tick claims again (backlog kept)
      const claimed = await claimDueTicks(free);
      this.backlog = claimed.length === free;
      for (const c of claimed) this.launch(c);
      return claimed;
    } catch (err) {
      logger().error({ err: err instanceof Error ? err.message : String(err) }, "falha ao buscar robôs devidos");
      return [];
    }
  }

  private launch(c: ClaimedTick): void {
    const startedAt = Date.now();
    const lagMs = startedAt - c.dueAt.getTime();
    metrics().tickLag.observe(Math.max(0, lagMs) / 1000);
    logger().debug({ userId: c.userId, dueAt: c.dueAt.toISOString(), lagMs }, "tick devido");
    const p = this.tick(c).finally(() => {
      this.running.delete(p);
      // A slot is free: claim again soon when bots were left due, else at the next regular poll.
      if (this.backlog) this.schedule(Math.max(0, BACKLOG_POLL_MS - (Date.now() - this.lastPoll)));
    });
    this.running.add(p);
  }

  private async tick(c: ClaimedTick): Promise<void> {
    try {
      await this.run(c.userId);
    } catch (err) {
      logger().warn({ userId: c.userId, err: err instanceof Error ? err.message : String(err) }, "tick com falha transitória: próximo ciclo antecipado");
      await makeTickDue(c.userId, Math.min(c.intervalSec, TICK_RETRY_DELAY_SEC)).catch((e: unknown) =>
        logger().error({ userId: c.userId, err: e instanceof Error ? e.message : String(e) }, "falha ao antecipar o próximo ciclo"),
      );
    }
  }

  /** (Re)arms the poll timer `ms` from now unless an earlier one is armed. */
  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer && ms >= this.pollMs) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.poll().finally(() => this.schedule(this.backlog ? BACKLOG_POLL_MS : this.pollMs));
    }, ms);
  }
}

declare global {
  var __tickScheduler: TickScheduler | undefined;
}

/** Starts this process's scheduler (`WORKERS=on`); a second call keeps the first. */
export function startTickScheduler(opts: TickSchedulerOptions): TickScheduler {
  globalThis.__tickScheduler ??= new TickScheduler(opts);
  globalThis.__tickScheduler.start();
  return globalThis.__tickScheduler;
}

/**
 * Graceful stop of this process's scheduler: no new claims, running ticks waited for (at most `timeoutMs`).
 * Returns how many ticks were still running at the bound (0 without a scheduler).
 */
export async function stopTickScheduler(timeoutMs = 20_000): Promise<number> {
  const s = globalThis.__tickScheduler;
  globalThis.__tickScheduler = undefined;
  const left = (await s?.stop(timeoutMs)) ?? 0;
  if (left) logger().warn({ ticks: left }, "ciclos ainda em andamento no encerramento: serão devidos de novo em um intervalo");
  return left;
}

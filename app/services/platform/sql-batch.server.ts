/**
 * Group commit of the statements that every bot tick sends (issue 13: "fewer SQL round trips per
 * tick, batched writes per batch of ticks"; ADR 0032). A `StatementBatcher` takes one item per tick
 * (a user id to lock, a context to read, decision rows to insert, the final bot update) and sends the
 * items of the ticks waiting at that moment as ONE statement: the first item waits one event-loop
 * turn (`setImmediate`, so the ticks a claim starts together land in one batch) and, while a batch
 * is in flight, new items wait for it and go together in the next. Nothing waits on a timer: a lone
 * tick (a run-once, a quiet process) sends its statement at once, as before.
 *
 * Each tick still awaits its own item, so what a tick writes is committed before it goes on (the
 * decisions before any order, ADR 0027), and a crash loses or keeps a whole statement, as before.
 * When a batch statement fails with a PostgreSQL error (the server refused the statement: nothing of
 * it was committed), each item is sent again on its own, so one bad item fails only its own tick;
 * any other failure (connection lost: the outcome is unknown) fails every item of the batch, as it
 * would have failed each tick's own statement.
 *
 * The statements are charged to the ticks' statement counters in equal shares
 * (db.server.ts `countSharedStatements`): a tick's logged `sqlRoundTrips` is its average cost.
 */
import postgres from "postgres";
import { countSharedStatements, currentStatementScope } from "./db.server";

interface Pending<I, R> {
  item: I;
  resolve: (r: R) => void;
  reject: (err: unknown) => void;
  scope: { statements: number } | undefined;
}

/** PostgreSQL's error answer to the statement (postgres.js `PostgresError`): it was refused and nothing of it committed. */
const refusedByServer = (err: unknown): boolean => err instanceof postgres.PostgresError;

export interface StatementBatcherOptions<I, R> {
  /** One statement for many items; answers one result per item, in order. */
  many: (items: I[]) => Promise<R[]>;
  /** The statement of one item alone (a batch of one, and the retry of each item of a refused batch). */
  one: (item: I) => Promise<R>;
  /** Most items per statement (parameters per statement are bounded: 65,535). Default 500. */
  maxBatch?: number;
}

/** Sends the items submitted by concurrent callers as one statement per batch (see the module docstring). */
export class StatementBatcher<I, R> {
  private queue: Pending<I, R>[] = [];
  private inFlight = false;
  private armed = false;
  private readonly maxBatch: number;

  constructor(private readonly opts: StatementBatcherOptions<I, R>) {
    this.maxBatch = opts.maxBatch ?? 500;
  }

  /** Resolves with the item's result once the statement that carried it completed. */
  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject, scope: currentStatementScope() });
      this.arm();
    });
  }

  private arm(): void {
    if (this.inFlight || this.armed) return;
    this.armed = true;
    setImmediate(() => {
      this.armed = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.inFlight || this.queue.length === 0) return;
    this.inFlight = true;
    const batch = this.queue.splice(0, this.maxBatch);
    try {
      if (batch.length === 1) {
        const [p] = batch as [Pending<I, R>];
        await countSharedStatements([p.scope], () => this.opts.one(p.item)).then(p.resolve, p.reject);
        return;
      }
      let results: R[];
      try {
        results = await countSharedStatements(
          batch.map((p) => p.scope),
          () => this.opts.many(batch.map((p) => p.item)),
        );
      } catch (err) {
        if (!refusedByServer(err)) {
          for (const p of batch) p.reject(err);
          return;
        }
        await Promise.all(batch.map((p) => countSharedStatements([p.scope], () => this.opts.one(p.item)).then(p.resolve, p.reject)));
        return;
      }
      batch.forEach((p, i) => p.resolve(results[i]!));
    } finally {
      this.inFlight = false;
      if (this.queue.length > 0) this.arm();
    }
  }
}

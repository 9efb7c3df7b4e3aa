/**
 * The user's own backtest (issue 12, ADR 0019): a run of the user's CURRENT trading settings
 * through the live executor over history (core/backtest/run.ts `runBacktest`), plus the random-entry
 * baseline (core/backtest/baseline.ts), as a `backtest-run` pg-boss job; the row `backtest_runs`
 * keeps the parameters, the progress and the result (jsonb). Every read and write goes through the
 * owner (WHERE user_id = the session's user). Limits: one queued/running run per user (429), the
 * last MAX_RUNS_KEPT runs kept (older ones deleted). A run whose process died is failed by the
 * stale sweep (no progress for STALE_RUNNING_SECONDS, or queued for STALE_QUEUED_SECONDS).
 */
import { z } from "zod";
import type { CandlesByTimeframe } from "../../../core/engine/decide";
import { msg } from "../../../core/i18n/message";
import { enqueueBacktestRun } from "../platform/queue/send";
import { offeredInstrumentList } from "../broker/account-state.server";
import { brokerFailure, brokerNow, clientFor, getConnection, requireBroker } from "../broker/broker.server";
import { decryptSecret } from "../platform/crypto.server";
import { calendarIndex, calendarUsedFor } from "../trading/calendar.server";
import { db } from "../platform/db.server";
import { busyRunCount, claimRun, deleteRunRow, failRun, failRunAfter, failStaleRunRows, finishRun, insertRun, listRunRows, pruneRuns, runRow, runRows, setRunProgress, type BacktestRunRow } from "../../../db/queries/backtest-runs";
import { DomainError, NotFoundError, RateLimitedError, ServiceUnavailableError, ValidationError } from "../platform/errors.server";
import { logger } from "../platform/logger.server";
import { getSettings } from "../trading/settings.server";
import { brokerCandles, brokerRange, MAX_PERIOD_DAYS, shippedDataDir, shippedRange, type SourceRange } from "./data.server";
import { conversionPairs } from "../../../core/backtest/long-history";
import { commonRange, longHistoryDir, longRange, type LongRange } from "./long-history.server";
import type { ComputeRequest } from "./compute.server";
import { BacktestTimeoutError, backtestPool, type ComputeOnWorker } from "./worker-pool.server";
import { requireValidLicence } from "../identity/licence.server";
import { BASELINE_SEEDS, CURVE_POINTS, longMaxDays, type CandleSource, type RunParams, type RunResult, type RunStatus, type RunView } from "../../lib/backtest-run";

export { BASELINE_SEEDS, CURVE_POINTS };

/** Runs kept per user; creating one more deletes the oldest finished ones. */
export const MAX_RUNS_KEPT = 20;
/** A running run without progress for this long is taken for dead (its process crashed or restarted). */
export const STALE_RUNNING_SECONDS = 180;
/** A queued run not picked up for this long is failed (its job was lost). */
export const STALE_QUEUED_SECONDS = 900;
/** Progress is written when it moved by at least this many points. */
export const PROGRESS_STEP = 5;
/** …or when this long passed since the last write (ms), well inside STALE_RUNNING_SECONDS. */
export const PROGRESS_HEARTBEAT_MS = 30_000;
/** Initial balance when the user gives none (account currency). */
export const DEFAULT_INITIAL_BALANCE = "10000";
const DAY_MS = 86_400_000;

export type { CandleSource, CurvePoint, RunParams, RunResult, RunStatus, RunTrade, RunView } from "../../lib/backtest-run";

type RunRow = BacktestRunRow<RunParams, RunResult, RunStatus>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function view(row: RunRow, withResult: boolean): RunView {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    params: row.params,
    error: row.error,
    createdAt: row.created_at.toISOString(),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    durationMs: row.duration_ms,
    ...(withResult ? { result: row.result } : {}),
  };
}

/** The message of an invalid body field. */
const invalid = (key: string, params?: Record<string, string | number>, field?: string) => new ValidationError(msg(`backtest:errors.${key}`, params), field ? { field } : {});

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Whether `s` is a real calendar day written AAAA-MM-DD (issue 24: `2026-02-31` was accepted, since
 * `Date.parse` rolls it over to 3 March): the UTC day it parses to must print back as the same text.
 */
function isCalendarDate(s: string | undefined): s is string {
  if (!s || !DATE.test(s)) return false;
  const ms = Date.parse(`${s}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === s;
}
/** Body of POST /api/backtest (its fields then checked by `validateRequest`); exported for the API contract. */
export const backtestRequestSchema = z.object({
  instruments: z.array(z.string()).optional(),
  instrument: z.union([z.string(), z.array(z.string())]).optional(),
  source: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  initialBalance: z.union([z.string(), z.number()]).optional(),
});

/** What each source offers the user now (the page's form). */
export interface SourceOffer {
  shipped: SourceRange | null;
  /** Null without a broker connection. */
  broker: SourceRange | null;
  /** The long H1 history (issue 21); null when its folder (FX_LONG_DIR) is absent. */
  long: LongRange | null;
}

/**
 * The sources, their pairs and date ranges for a user. The broker source offers the supported pairs
 * the connected account itself trades (account-state.server.ts offeredInstrumentList: the account's instrument
 * list, cached per account for the bot and the pre-flight check, so no broker request per view while
 * it is fresh); no broker source when that list cannot be read or shares no supported pair.
 */
export async function sourceOffer(userId: string): Promise<SourceOffer> {
  const conn = await getConnection(userId);
  let broker: SourceRange | null = null;
  if (conn) {
    try {
      const list = await offeredInstrumentList({ ...conn, user_id: userId }, clientFor(decryptSecret(conn.token_encrypted), conn.environment));
      const range = brokerRange(brokerNow(conn), list.map((i) => i.name));
      broker = range.instruments.length ? range : null;
    } catch (err) {
      logger().warn({ err, userId }, "lista de instrumentos da conta indisponível para o backtest");
    }
  }
  return { shipped: shippedRange(), broker, long: longRange() };
}

/**
 * Default form values: the last three months of the shipped data (else of the broker's), all pairs'
 * first; `asked` (the page's `?source=`) picks the source when it is offered: "long" = its EUR_USD
 * (else first pair) over the last year of that pair's data.
 */
export function defaultForm(offer: SourceOffer, asked?: string | null): { source: CandleSource; instruments: string[]; from: string; to: string } | null {
  if (asked === "long" && offer.long) {
    const pair = offer.long.instruments.includes("EUR_USD") ? "EUR_USD" : offer.long.instruments[0]!;
    const r = offer.long.ranges[pair]!;
    const to = Date.parse(r.maxDate);
    const from = Math.max(Date.parse(r.minDate), to - 364 * DAY_MS);
    return { source: "long", instruments: [pair], from: new Date(from).toISOString().slice(0, 10), to: r.maxDate };
  }
  const source: CandleSource | null = asked === "broker" && offer.broker ? "broker" : offer.shipped ? "shipped" : offer.broker ? "broker" : null;
  if (!source) return null;
  const r = offer[source]!;
  const to = Date.parse(r.maxDate);
  const from = Math.max(Date.parse(r.minDate), to - (MAX_PERIOD_DAYS - 2) * DAY_MS);
  return { source, instruments: r.instruments.slice(0, 1), from: new Date(from).toISOString().slice(0, 10), to: r.maxDate };
}

/**
 * Validates a create request against what the sources offer (1–3 pairs of the source, a period of
 * whole UTC days inside its range — on the long history inside every chosen pair's own range —,
 * ≤ MAX_PERIOD_DAYS (long history: ⌊maxDays / pairs⌋), an initial balance 100–10,000,000).
 * @throws ValidationError (400) naming the field, in Portuguese for a pt reader.
 */
export function validateRequest(body: unknown, offer: SourceOffer): Omit<RunParams, "settings" | "accountCurrency" | "seeds"> {
  const parsed = backtestRequestSchema.safeParse(body ?? {});
  if (!parsed.success) throw invalid("body");
  const b = parsed.data;
  if (b.source !== "shipped" && b.source !== "broker" && b.source !== "long") throw invalid("source", undefined, "source");
  const range = offer[b.source];
  if (!range) throw invalid(b.source === "broker" ? "noBroker" : b.source === "long" ? "noLong" : "noData", undefined, "source");
  const raw = b.instruments ?? (b.instrument === undefined ? [] : Array.isArray(b.instrument) ? b.instrument : [b.instrument]);
  const instruments = [...new Set(raw)];
  if (instruments.length < 1 || instruments.length > 3) throw invalid("instruments", { max: 3 }, "instruments");
  for (const i of instruments) {
    if (range.instruments.includes(i)) continue;
    // A supported pair the account does not trade: said so, before any broker call (issue 22 item 7).
    if (b.source === "broker") throw invalid("brokerInstrumentUnavailable", { instrument: i.slice(0, 20), offered: range.instruments.join(", ") }, "instruments");
    throw invalid("instrumentUnavailable", { instrument: i.slice(0, 20) }, "instruments");
  }
  if (!isCalendarDate(b.from) || !isCalendarDate(b.to)) throw invalid("dates", undefined, isCalendarDate(b.from) ? "to" : "from");
  const span = b.source === "long" ? (commonRange(offer.long!, instruments) ?? { minDate: "", maxDate: "" }) : range;
  if (!span.minDate || b.from < span.minDate || b.to > span.maxDate || b.from > b.to) {
    if (!span.minDate) throw invalid("noCommonRange", undefined, "instruments");
    throw invalid("range", { min: span.minDate, max: span.maxDate }, "from");
  }
  const maxDays = b.source === "long" ? longMaxDays(offer.long!.maxDays, instruments.length) : MAX_PERIOD_DAYS;
  if ((Date.parse(b.to) - Date.parse(b.from)) / DAY_MS + 1 > maxDays) throw invalid("tooLong", { days: maxDays }, "to");
  const balance = Number(b.initialBalance ?? DEFAULT_INITIAL_BALANCE);
  if (!Number.isFinite(balance) || balance < 100 || balance > 10_000_000) throw invalid("balance", undefined, "initialBalance");
  return { instruments, source: b.source, from: b.from, to: b.to, initialBalance: String(Math.round(balance * 100) / 100) };
}

/**
 * Fails the user's runs whose process is gone (no progress written for STALE_RUNNING_SECONDS, or
 * queued for STALE_QUEUED_SECONDS); all users' when `userId` is omitted.
 */
export async function failStaleRuns(userId?: string): Promise<number> {
  const sql = db();
  const error = "O backtest foi interrompido (o servidor reiniciou). Rode de novo.";
  const rows = await failStaleRunRows(sql, error, userId, STALE_RUNNING_SECONDS, STALE_QUEUED_SECONDS);
  return rows.length;
}

/** Who asks for a run: the session's user (the licence check needs the role and the subscription). */
export interface RunRequester {
  id: string;
  role: string;
  subscription_status: string;
}

/**
 * Creates a run with the user's current settings and queues its job. A backtest runs the AI, so it
 * needs a valid licence (PRODUCT.md §6; issue 24), refused as starting the AI or a manual order is.
 * @throws PaymentRequiredError (402, `licenseRequired`) without a valid licence; ValidationError
 *   (400) for a bad request; RateLimitedError (429) when a run of the user is still queued or
 *   running; ServiceUnavailableError (503) when no job queue runs.
 */
export async function createRun(user: RunRequester, body: unknown): Promise<RunView> {
  await requireValidLicence(user, msg("backtest:errors.licence"));
  const userId = user.id;
  const offer = await sourceOffer(userId);
  const req = validateRequest(body, offer);
  const settings = await getSettings(userId);
  const conn = await getConnection(userId);
  const params: RunParams = { ...req, settings, accountCurrency: conn?.account_currency ?? "USD", seeds: BASELINE_SEEDS };
  await failStaleRuns(userId);
  const row = await db().begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${`backtest:${userId}`}))`;
    const busy = await busyRunCount(tx, userId);
    if ((busy ?? 0) > 0) throw new RateLimitedError(msg("backtest:errors.busy"), { retryAfter: 5 });
    const created = await insertRun<RunRow>(tx, userId, params);
    await pruneRuns(tx, userId, MAX_RUNS_KEPT);
    return created!;
  });
  const job = await enqueueBacktestRun(row.id).catch((err: unknown) => {
    logger().error({ err, runId: row.id }, "falha ao enfileirar o backtest");
    return null;
  });
  if (!job) {
    await failRun(db(), row.id, "A fila de tarefas está indisponível.");
    throw new ServiceUnavailableError(msg("backtest:errors.queue"));
  }
  return view(row, false);
}

/** The user's runs, newest first (without their results). */
export async function listRuns(userId: string): Promise<RunView[]> {
  await failStaleRuns(userId);
  const rows = await listRunRows<RunRow>(db(), userId, MAX_RUNS_KEPT);
  return rows.map((r) => view(r, false));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One of the user's runs with its result. @throws NotFoundError (404) for another user's or a missing id. */
export async function getRun(userId: string, id: string): Promise<RunView> {
  if (!UUID.test(id)) throw new NotFoundError(msg("backtest:errors.notFound"));
  await failStaleRuns(userId);
  const row = await runRow<RunRow>(db(), userId, id);
  if (!row) throw new NotFoundError(msg("backtest:errors.notFound"));
  return view(row, true);
}

/** Several of the user's runs with results (the comparison); unknown or foreign ids are skipped. */
export async function getRuns(userId: string, ids: readonly string[]): Promise<RunView[]> {
  const valid = ids.filter((i) => UUID.test(i)).slice(0, 6);
  if (!valid.length) return [];
  const rows = await runRows<RunRow>(db(), userId, valid);
  return rows.map((r) => view(r, true));
}

/** Deletes one of the user's finished runs. @throws NotFoundError (404); ValidationError while it runs. */
export async function deleteRun(userId: string, id: string): Promise<void> {
  const run = await getRun(userId, id);
  if (run.status === "queued" || run.status === "running") throw invalid("stillRunning");
  await deleteRunRow(db(), userId, id);
}

export { drawdownCurve, toRunResult } from "./compute.server";

/** A failure's Portuguese text for the row. */
function failureText(err: unknown): string {
  if (err instanceof DomainError) return err.messageIn("pt");
  if (err instanceof BacktestTimeoutError) return new ServiceUnavailableError(msg("backtest:errors.timeout", { limit: err.seconds % 60 === 0 ? `${err.seconds / 60} min` : `${err.seconds} s` })).messageIn("pt");
  return `O backtest falhou: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500);
}

/**
 * Runs a queued run (the `backtest-run` job) within this process's backtest budget (issue 24, ADR
 * 0039: worker-pool.server.ts, BACKTEST_CONCURRENCY runs at once, the rest wait queued): claims it
 * (queued → running), gathers what the compute needs on the main thread (the broker's candles, the
 * calendar), computes the strategy and the baseline in a worker thread, writes the progress every
 * PROGRESS_STEP points and the result. A failure (a run past BACKTEST_TIMEOUT_SEC included) is stored
 * (status failed, Portuguese error), never thrown: a retry would only repeat it. A run already
 * claimed, finished or deleted is left alone.
 */
export async function executeRun(runId: string): Promise<void> {
  await backtestPool().withSlot((compute) => executeClaimed(runId, compute));
}

async function executeClaimed(runId: string, compute: ComputeOnWorker): Promise<void> {
  const sql = db();
  const row = await claimRun<RunRow>(sql, runId);
  if (!row) return;
  const started = performance.now();
  let written = 0;
  let writtenAt = performance.now();
  const setProgress = async (pct: number): Promise<void> => {
    const p = Math.min(99, Math.floor(pct));
    // Every PROGRESS_STEP points, and at least every PROGRESS_HEARTBEAT_MS on a long run (the long
    // history: 5 points can take minutes), so the stale sweep never takes a live run for dead.
    if (p < written + PROGRESS_STEP && performance.now() - writtenAt < PROGRESS_HEARTBEAT_MS) return;
    written = Math.max(written, p);
    writtenAt = performance.now();
    await setRunProgress(sql, runId, p);
  };
  try {
    const p = row.params;
    let candles: ComputeRequest["candles"];
    if (p.source === "shipped") {
      candles = { kind: "shipped", dir: shippedDataDir() };
    } else if (p.source === "long") {
      // The pairs that convert a cross's quote currency (EUR_GBP → GBP_USD) ride along untraded.
      const offered = longRange()?.instruments ?? [];
      candles = { kind: "long", dir: longHistoryDir(), pairs: [...p.instruments, ...conversionPairs(p.instruments, p.accountCurrency, offered)] };
    } else {
      const { client } = await requireBroker(row.user_id);
      const fromMs = Date.parse(p.from);
      const toMs = Date.parse(p.to) + DAY_MS;
      const byInstrument: Record<string, CandlesByTimeframe> = {};
      for (const i of p.instruments) {
        byInstrument[i] = await brokerCandles(client, i, fromMs, toMs).catch((err: unknown) => {
          throw brokerFailure(err);
        });
        if (!byInstrument[i]!.M5?.length && !byInstrument[i]!.M15?.length && !byInstrument[i]!.H1?.length) throw invalid("brokerNoCandles", { instrument: i });
      }
      candles = { kind: "given", byInstrument };
    }
    const calendarEvents = (await calendarIndex()).events;
    const out = await compute({ params: p, candles, calendarEvents }, setProgress);
    const result: RunResult = { ...out.result, calendar: await calendarUsedFor(p.settings, Date.parse(`${p.from}T00:00:00Z`), Date.parse(p.to) + DAY_MS) };
    await finishRun(sql, runId, result, Math.round(performance.now() - started));
  } catch (err) {
    logger().warn({ runId, err: err instanceof Error ? err.message : String(err) }, "backtest falhou");
    await failRunAfter(sql, runId, failureText(err), Math.round(performance.now() - started));
  }
}

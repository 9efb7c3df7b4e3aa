/**
 * Health report for /health, /api/health and /api/status: database, queue and broker reachability.
 * The broker probe is an unauthenticated `GET /v3/accounts` (a reachable OANDA answers 401), cached
 * for 15 s so health checks never hammer the broker.
 */
import { config } from "./config.server";
import { db } from "./db.server";
import { queue } from "./queue/boss";

let brokerCache: { at: number; value: { ok: boolean; latencyMs?: number; error?: string } } | undefined;

async function probeBroker() {
  if (brokerCache && Date.now() - brokerCache.at < 15_000) return brokerCache.value;
  const started = Date.now();
  let value: { ok: boolean; latencyMs?: number; error?: string };
  try {
    const res = await fetch(`${config().oanda.practice.api}/v3/accounts`, { signal: AbortSignal.timeout(2_000) });
    value = { ok: res.status === 401 || res.ok, latencyMs: Date.now() - started };
  } catch (err) {
    value = { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  brokerCache = { at: Date.now(), value };
  return value;
}

/** The health report; `status` is 'ok' only when every part is reachable. */
export async function healthReport() {
  const started = Date.now();
  const database = await db()`select 1`
    .then(() => ({ ok: true, latencyMs: Date.now() - started }))
    .catch((err: unknown) => ({ ok: false, error: err instanceof Error ? err.message : String(err) }));
  const boss = queue();
  const queueState = boss
    ? await boss
        .getQueues()
        .then((qs) => ({ ok: true, workers: config().WORKERS, queues: qs.map((q) => q.name) }))
        .catch((err: unknown) => ({ ok: false, error: err instanceof Error ? err.message : String(err) }))
    : { ok: false, error: "fila não iniciada" };
  const broker = { mode: config().OANDA_MODE, ...(await probeBroker()) };
  const ok = database.ok && queueState.ok && broker.ok;
  return { status: ok ? "ok" : "degraded", time: new Date().toISOString(), database, queue: queueState, broker };
}

/** JSON response with 200 when healthy, 503 otherwise. */
export async function healthResponse(): Promise<Response> {
  const report = await healthReport();
  return new Response(JSON.stringify(report), {
    status: report.status === "ok" ? 200 : 503,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}

/**
 * The process's Prometheus metrics (issue 24, "Metrics"): one `prom-client` registry holding every metric
 * family the product exports, served on `/metrics` by server/metrics-endpoint.ts (a separate METRICS_PORT,
 * or the app's port behind METRICS_TOKEN; never public). Each process exports its own.
 *
 * Labels are bounded (README "Métricas e monitoramento"): never a user id, e-mail, account, trade or
 * instrument id. Routes are route templates (server/http-metrics.ts), broker endpoints templates
 * (core/oanda/http.ts `endpointTemplate`), and every free-text label goes through `bounded`.
 *
 * A `globalThis` singleton (like the config and the pool): the Express entry (server/index.ts) and the
 * Remix build are separate module graphs, and both must count into the same registry. The Express entry's
 * bundle imports this module too, so it imports nothing that reaches the app's `~/` modules (no pool, no
 * errors module): the queue counts go through pg-boss's own connection.
 */
import client from "prom-client";
import type { RequestObserver, RequestReport } from "../../../core/oanda/http";
import { queueJobCounts } from "../../../db/queries/pgboss-jobs";
import { logger } from "./logger.server";
import { queue } from "./queue/boss";
import { ALL_QUEUES, DEAD_LETTER_QUEUE } from "./queue/queues";

/** Every metric name starts with this. */
export const METRIC_PREFIX = "forexia_";

/** A free-text label value kept only when it is a short identifier-like word, else `other` (a bound on label values). */
export function bounded(value: string | null | undefined, allowed?: ReadonlySet<string>): string {
  if (!value) return "none";
  if (allowed) return allowed.has(value) ? value : "other";
  return /^[A-Za-z][A-Za-z0-9_.-]{0,39}$/.test(value) ? value : "other";
}

const HTTP_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** An HTTP method as a label: the usual ones, else `other`. */
export function methodLabel(method: string | undefined): string {
  return bounded((method ?? "").toUpperCase(), HTTP_METHODS);
}

/** An HTTP status code as a label: `100`–`599` as it is, else `other`. */
export function statusLabel(status: number): string {
  return Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : "other";
}

/** Histogram buckets, seconds. */
const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600];
const TICK_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];
const ORDER_BUCKETS = [0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 1, 2, 5, 10];
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Builds the registry and every family (once per process: `metrics()`). */
function createMetrics() {
  const registry = new client.Registry();
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new client.Counter<L>({ name: METRIC_PREFIX + name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(name: string, help: string, buckets: number[], labelNames: readonly L[] = []) =>
    new client.Histogram<L>({ name: METRIC_PREFIX + name, help, buckets, labelNames, registers: [registry] });

  const m = {
    registry,
    // Bot ticks (app/services/trading/tick-scheduler.server.ts, tick-runner.server.ts).
    tickLag: histogram("tick_lag_seconds", "Atraso do início de um tick em relação ao horário devido, segundos.", LAG_BUCKETS),
    tickDuration: histogram("tick_duration_seconds", "Duração de um tick de robô, segundos.", TICK_BUCKETS, ["outcome"]),
    ticks: counter("ticks_total", "Ticks de robô executados, por resultado (done, skipped, failed).", ["outcome"]),
    ticksFailed: counter("ticks_failed_total", "Ticks que falharam, pelo tipo de erro (do corretor: o kind do BrokerError; deadline; other).", ["kind"]),
    decisions: counter("decisions_total", "Decisões gravadas, por ação e veredito (executed, ou o código da regra de risco).", ["action", "verdict"]),
    ordersPlaced: counter("orders_placed_total", "Ordens a mercado executadas (fill) pelo corretor, por origem (ai, manual).", ["origin"]),
    ordersRejected: counter("orders_rejected_total", "Ordens recusadas ou canceladas pelo corretor (ou recusadas localmente), por origem e resultado.", ["origin", "outcome"]),
    decisionToOrder: histogram("decision_to_order_seconds", "Da decisão gravada até a ordem sair para o corretor (requisição enviada, após o limitador), segundos.", ORDER_BUCKETS),
    // Broker (core/oanda/http.ts through `brokerObserver`).
    brokerRequests: counter("broker_requests_total", "Tentativas de requisição ao corretor, por método, endpoint (modelo) e status (ou timeout/network/aborted).", ["method", "endpoint", "status"]),
    brokerDuration: histogram("broker_request_duration_seconds", "Duração de uma tentativa de requisição ao corretor, segundos.", REQUEST_BUCKETS, ["method", "endpoint"]),
    broker429: counter("broker_rate_limited_total", "Respostas 429 do corretor, por endpoint.", ["endpoint"]),
    broker5xx: counter("broker_server_errors_total", "Respostas 5xx do corretor, por endpoint.", ["endpoint"]),
    brokerTimeouts: counter("broker_timeouts_total", "Tentativas ao corretor que estouraram o tempo limite, por endpoint.", ["endpoint"]),
    // pg-boss queues (collected on scrape).
    queueDepth: new client.Gauge<"queue">({
      name: METRIC_PREFIX + "queue_depth",
      help: "Jobs esperando (created + retry) por fila do pg-boss; a fila dead-letter conta as mensagens mortas ainda não tratadas.",
      labelNames: ["queue"],
      registers: [registry],
      async collect() {
        await collectQueues(m);
      },
    }),
    queueDeadLetters: new client.Gauge<"queue">({
      name: METRIC_PREFIX + "queue_dead_letters",
      help: "Jobs que esgotaram as tentativas (estado failed, enviados à fila dead-letter) ainda retidos pelo pg-boss, por fila.",
      labelNames: ["queue"],
      registers: [registry],
    }),
    // Server-sent events (app/services/streams/sse-routes.server.ts).
    sseSubscribers: new client.Gauge({
      name: METRIC_PREFIX + "sse_subscribers",
      help: "Conexões SSE abertas neste processo.",
      registers: [registry],
      collect() {
        this.set(m.sseCount?.() ?? 0);
      },
    }),
    /** Open SSE connections, registered by the streams room (`countSseSubscribersWith`). */
    sseCount: undefined as (() => number) | undefined,
    sseDropped: counter("sse_dropped_total", "Conexões SSE encerradas pelo servidor por cliente lento ou fila cheia.", ["reason"]),
    // HTTP (server/http-metrics.ts).
    httpRequests: counter("http_requests_total", "Requisições HTTP atendidas, por método, rota (modelo da rota Remix ou grupo fixo) e status.", ["method", "route", "status"]),
    httpDuration: histogram("http_request_duration_seconds", "Duração de uma requisição HTTP até o fim da resposta, segundos.", REQUEST_BUCKETS, ["method", "route"]),
    // Stripe webhooks (app/services/billing/stripe-events.server.ts).
    webhooksReceived: counter("stripe_webhooks_received_total", "Webhooks Stripe recebidos, por resultado (stored, duplicate, refused).", ["outcome"]),
    webhooksProcessed: counter("stripe_webhooks_processed_total", "Eventos Stripe processados com sucesso, por tipo (os tratados; outros: other).", ["type"]),
    webhooksFailed: counter("stripe_webhooks_failed_total", "Processamentos de evento Stripe que falharam (o job tenta de novo), por tipo.", ["type"]),
    // Web push (app/services/notify/push/push.server.ts).
    pushesSent: counter("pushes_sent_total", "Pushes entregues ao serviço de push."),
    pushesFailed: counter("pushes_failed_total", "Pushes que falharam, pelo motivo (rejected, rate_limited, retryable).", ["reason"]),
    pushesExpired: counter("pushes_expired_total", "Inscrições push expiradas (404/410) e removidas."),
    // E-mail (app/services/notify/email.server.ts).
    emailsSent: counter("emails_sent_total", "E-mails entregues ao servidor SMTP."),
    emailsFailed: counter("emails_failed_total", "Envios de e-mail que falharam (o job tenta de novo)."),
  };
  client.collectDefaultMetrics({ register: registry });
  return m;
}

/** The process's metrics (see the module doc). */
export type Metrics = ReturnType<typeof createMetrics>;

declare global {
  var __forexIaMetrics: Metrics | undefined;
}

/** This process's metrics, created on first use. */
export function metrics(): Metrics {
  return (globalThis.__forexIaMetrics ??= createMetrics());
}

/** Every metric family name of the registry (the alert rules' test checks its expressions against it). */
export function metricNames(): string[] {
  return metrics()
    .registry.getMetricsAsArray()
    .map((x) => x.name);
}

/**
 * The registry in the Prometheus text format, with its content type.
 * @throws nothing: a failing collector (the queue counts) is logged and its gauges keep their last values
 */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  const r = metrics().registry;
  return { contentType: r.contentType, body: await r.metrics() };
}

/** Queue names exported (the product's queues and the dead-letter queue): a bound on the `queue` label. */
const QUEUE_NAMES = new Set([...ALL_QUEUES.map((q) => q.name), DEAD_LETTER_QUEUE]);

/**
 * Fills the queue gauges from one statement (db/queries/pgboss-jobs.ts) on pg-boss's connection. A process
 * whose queue has not started yet, or a failing read, keeps the gauges' last values (a failure is logged: a
 * scrape never fails for it).
 */
async function collectQueues(m: Metrics): Promise<void> {
  const boss = queue();
  if (!boss) return;
  try {
    const rows = await queueJobCounts(boss.getDb());
    const depth = new Map<string, number>([...QUEUE_NAMES].map((q) => [q, 0]));
    const dead = new Map(depth);
    for (const r of rows) {
      if (!QUEUE_NAMES.has(r.queue)) continue;
      if (r.state === "failed") dead.set(r.queue, (dead.get(r.queue) ?? 0) + r.count);
      else depth.set(r.queue, (depth.get(r.queue) ?? 0) + r.count);
    }
    for (const [q, n] of depth) m.queueDepth.set({ queue: q }, n);
    for (const [q, n] of dead) m.queueDeadLetters.set({ queue: q }, n);
  } catch (err) {
    logger().warn({ err: err instanceof Error ? err.message : String(err) }, "métricas: falha ao contar jobs das filas");
  }
}

/** The SSE room's count of open connections, read by the `sse_subscribers` gauge on each scrape. */
export function countSseSubscribersWith(count: () => number): void {
  metrics().sseCount = count;
}

/** SSE drop reasons (app/services/streams/sse-routes.server.ts `drop`) as labels. */
const SSE_DROP_REASONS: Record<string, string> = { "cliente lento": "slow_client", "fila cheia": "queue_full" };

/** A stream the server ended for back-pressure, by its (Portuguese) reason; others count as `other`. */
export function countSseDrop(reason: string): void {
  metrics().sseDropped.inc({ reason: SSE_DROP_REASONS[reason] ?? "other" });
}

/** Orders expected on the wire: client order id → when its decision was stored (ms); bounded. */
const MAX_PENDING_ORDERS = 20_000;
const decisionsStored = new Map<string, number>();
const ordersExpected = new Map<string, number>();

function remember(map: Map<string, number>, key: string, at: number): void {
  if (map.size >= MAX_PENDING_ORDERS) map.delete(map.keys().next().value!);
  map.set(key, at);
}

/** A decision to open a trade was stored (`key` = `<user id>:<decision id>`, never exported): starts its decision → order clock. */
export function noteDecisionStored(key: string, at = Date.now()): void {
  remember(decisionsStored, key, at);
}

/** The order of decision `key` is about to be sent with client id `clientOrderId` (see `brokerObserver.sent`). */
export function noteOrderExpected(key: string, clientOrderId: string): void {
  const at = decisionsStored.get(key);
  decisionsStored.delete(key);
  if (at !== undefined) remember(ordersExpected, clientOrderId, at);
}

/** The client id an order body carries (`order.clientExtensions.id`, core/oanda/order-body.ts). */
function clientIdOf(body: unknown): string | undefined {
  const id = (body as { order?: { clientExtensions?: { id?: unknown } } } | undefined)?.order?.clientExtensions?.id;
  return typeof id === "string" ? id : undefined;
}

/** Failed-attempt statuses kept as they are on the broker label; the rest grouped by class. */
function brokerStatus(r: RequestReport): string {
  if (r.outcome === "timeout" || r.outcome === "network" || r.outcome === "aborted") return r.outcome;
  return statusLabel(r.status);
}

/**
 * The observer every OANDA client of the process gets (app/services/broker/broker.server.ts `clientFor`):
 * counts and times each attempt by endpoint template and status, counts 429s, 5xx and timeouts, and
 * closes the decision → order clock when an order's request leaves. Never throws.
 */
export const brokerObserver: RequestObserver = {
  sent(info) {
    if (info.method !== "POST" || !info.endpoint.endsWith("/orders")) return;
    const id = clientIdOf(info.body);
    const at = id === undefined ? undefined : ordersExpected.get(id);
    if (at === undefined) return;
    ordersExpected.delete(id!);
    metrics().decisionToOrder.observe(Math.max(0, Date.now() - at) / 1000);
  },
  done(r) {
    const m = metrics();
    const endpoint = r.endpoint; // a template of the API's fixed vocabulary (core/oanda/http.ts endpointTemplate)
    m.brokerRequests.inc({ method: r.method, endpoint, status: brokerStatus(r) });
    m.brokerDuration.observe({ method: r.method, endpoint }, r.seconds);
    if (r.status === 429) m.broker429.inc({ endpoint });
    else if (r.status >= 500) m.broker5xx.inc({ endpoint });
    else if (r.outcome === "timeout") m.brokerTimeouts.inc({ endpoint });
  },
};

/**
 * The one process (DESIGN.md §1): Express + the Remix handler + pg-boss workers.
 * Boot order: config (the environment is read here, once: server/env.ts) → local secrets → database
 * (embedded when no DATABASE_URL) → migrations → HTTP listen → runtime config (bound port, APP_URL,
 * simulator URLs) → Remix build, handed the config → background (workers, admin/demo bootstrap).
 * Nothing reads or writes `process.env` after this (ADR 0009).
 * Shutdown on SIGINT/SIGTERM, bounded by SHUTDOWN_GRACE_MS (25 s; README "Deployment", docs/RELIABILITY.md):
 * `/ready` answers 503 at once → stop accepting (listener closed, idle sockets closed, responses in flight
 * finish with `Connection: close`) → SSE streams get `server_shutdown` and end → running ticks get what is
 * left of the bound less 5 s, pg-boss's running jobs the rest → remaining sockets cut, pools closed, the
 * embedded database stopped → exit 0, or 1 when ticks were still running at the bound (they are due again
 * within one interval) or the bound was passed; a watchdog exits 1 at 30 s whatever still runs.
 * `--dev` serves the app through Vite (HMR); otherwise the production build in `build/` (BUILD_DIR).
 * Production runs this file bundled by esbuild into `<BUILD_DIR>/server-entry.js` (`npm run build`) with
 * plain `node`; the Remix build starts loading while the database migrates; the "Pronto" line gives each
 * boot step's time (ADR 0026: cold start ≤ 3 s).
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type { Server } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { apiAliases } from "./api-aliases";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import postgres from "postgres";
import { CLIENT_IP_HEADER } from "../app/services/platform/client-ip.server";
import { ConfigError, parseConfig, withRuntime, type Config, type RuntimeValues } from "../app/services/platform/config.server";
import { runMigrations } from "../db/migrate";
import { mergeOperatorIdentity, operatorBootError, storedOperator } from "../app/services/platform/operator-boot";
import { startEmbeddedPostgres, type EmbeddedDb } from "./embedded-db";
import { readEnvironment, loadLibrariesInProductionMode } from "./env";
import { limitRequestBodies } from "./body-limit";
import { noStoreByDefault } from "./no-store";
import { refuseUnservedMethods } from "./method-guard";
import { guardUnhandledRejections } from "./rejection-guard";
import { rejectCrossSiteMutations, requireJsonApiBodies } from "./origin-check";
import { authRateLimits } from "./rate-limits";
import { isApiPath, splitBuild } from "./remix-handlers";
import { ensureLocalSecrets } from "./secrets";
import { mountSimulator } from "./simulator-mount";
import { mountStripeSimulator, STRIPE_SIM_MOUNT } from "./stripe-sim-mount";
import { settingValue } from "../db/queries/system-settings";
import { httpMetrics, routeLabeler, type RouteLabeler } from "./http-metrics";
import { metricsHandler, startMetricsServer } from "./metrics-endpoint";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = projectRoot(here);
/** Set when this is the bundle `<BUILD_DIR>/server-entry.js` (`npm run build`, ADR 0026): the build it sits in. */
const ownBuildDir = existsSync(path.join(here, "server", "index.js")) ? here : undefined;
const dev = process.argv.includes("--dev");
/**
 * Graceful shutdown bound, ms (issue 24; README "Deployment", docs/RELIABILITY.md): stop accepting, end the
 * SSE streams, wait for running ticks (this less 5 s) and jobs; past it the process exits 1. Under the
 * compose file's `stop_grace_period: 35s` and Kubernetes' default 30 s.
 */
const SHUTDOWN_GRACE_MS = 25_000;
/** Whatever still runs at this point is abandoned: exit 1 (above SHUTDOWN_GRACE_MS for the closing of pools and the embedded database). */
const SHUTDOWN_WATCHDOG_MS = 30_000;
const log = (m: string) => console.log(`[servidor] ${m}`);

/**
 * The project directory (where package.json, db/migrations and data/ live): the nearest ancestor of `from`
 * holding a package.json. The same for this file run through tsx (server/) and for its bundle in the build
 * directory (`<BUILD_DIR>/server-entry.js`, ADR 0026). @throws Error when no ancestor has a package.json
 */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`package.json não encontrado acima de ${from}`);
  }
}

/** What server/index.ts uses of the Remix build's entry (app/entry.server.tsx). */
type EntryModule = {
  configure?: (cfg: Config) => void;
  startBackground: (opts: { printLogins: boolean }) => Promise<{ logins: string[] }>;
  /** Stops ticks and jobs within `graceMs`; answers the ticks still running at their bound. */
  stopBackground: (graceMs?: number) => Promise<{ ticksLeft: number } | void>;
  /** Shutdown began: `/ready` answers 503 (app/services/platform/readiness-state.ts). */
  markShuttingDown?: () => void;
  /** SSE `/api/stream/*` (app/services/streams/sse-routes.server.ts) and their close on shutdown. */
  handleStreamRequest?: (req: express.Request, res: express.Response, next: express.NextFunction) => Promise<void>;
  closeStreams?: () => Promise<void>;
};

/** Hands the config to the build's module graph. @throws Error for a build from before `configure` existed */
function configureBuild(build: ServerBuild, cfg: Config): EntryModule {
  const entry = build.entry.module as unknown as EntryModule;
  if (typeof entry.configure !== "function") throw new Error("Build desatualizado (sem configure): rode `npm run build`.");
  entry.configure(cfg);
  return entry;
}

/**
 * Wall time of each boot step, for the "Pronto" log line (ADR 0026: cold start ≤ 3 s). The first step,
 * `módulos`, is the time from process start to `main()` (loading this entry and its imports).
 * `mark(name)` closes the step that began at the previous mark; `summary()` reads e.g.
 * "1234 ms (módulos 300 ms · migrações 40 ms · …)".
 */
function bootClock() {
  let last = performance.now(); // performance.now() counts from the process's start
  const steps = [`módulos ${Math.round(last)} ms`];
  return {
    mark(name: string) {
      const now = performance.now();
      steps.push(`${name} ${Math.round(now - last)} ms`);
      last = now;
    },
    summary: () => `${Math.round(performance.now())} ms (${steps.join(" · ")})`,
  };
}

async function main() {
  const clock = bootClock();
  // A database outage must not end the process through a library's unawaited promise (server/rejection-guard.ts).
  guardUnhandledRejections({ warn: (m) => console.warn(`[servidor] AVISO: ${m}`), fatal: (m) => console.error(`[servidor] ${m}`) });
  let cfg: Config;
  const environment = readEnvironment();
  try {
    cfg = parseConfig(environment);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const runtime: RuntimeValues = {};
  if (cfg.NODE_ENV !== "production") {
    const { generated, ...secrets } = ensureLocalSecrets(cfg, cfg.DATA_DIR);
    Object.assign(runtime, secrets);
    for (const name of generated) log(`AVISO: ${name} não definido; gerado e guardado em ${path.join(cfg.DATA_DIR, "secrets.json")}.`);
    if (!cfg.SESSION_SECRET || !cfg.ENCRYPTION_KEY) log("Usando segredos locais de DATA_DIR (defina SESSION_SECRET e ENCRYPTION_KEY em produção).");
  }

  // The production build starts loading now, while the database boots and migrates (its modules are
  // most of the boot's CPU time: ADR 0026); it is configured once the runtime config is known.
  let buildDir: string | undefined;
  let buildLoading: Promise<ServerBuild> | undefined;
  if (!dev) {
    // BUILD_DIR (vite.config.ts buildDirectory) when set, else the build this bundle sits in, else build/.
    buildDir = environment.BUILD_DIR ? path.resolve(root, environment.BUILD_DIR) : (ownBuildDir ?? path.join(root, "build"));
    const buildPath = path.join(buildDir, "server/index.js");
    if (!existsSync(buildPath)) {
      console.error("Build não encontrado: rode `npm run build` (ou use `npm start`, que compila antes).");
      process.exit(1);
    }
    // React's production build (the development one costs 20-25 % more CPU per page): ADR 0040.
    loadLibrariesInProductionMode();
    buildLoading = import(buildPath) as Promise<ServerBuild>;
    buildLoading.catch(() => {}); // awaited below; this only keeps an early failure from being "unhandled"
  }
  clock.mark("config");

  let embedded: EmbeddedDb | undefined;
  if (!cfg.DATABASE_URL) {
    log(`DATABASE_URL não definido: iniciando PostgreSQL embutido em ${path.resolve(cfg.DATA_DIR, "pg")}...`);
    embedded = await startEmbeddedPostgres(cfg.DATA_DIR);
    runtime.databaseUrl = embedded.url;
    clock.mark("banco embutido");
  }
  const migrator = postgres((cfg.DATABASE_URL ?? runtime.databaseUrl)!, { max: 1, onnotice: () => {} });
  let stripeKeyStored = false;
  try {
    const applied = await runMigrations(migrator, path.join(root, "db", "migrations"));
    if (applied.length) log(`Migrações aplicadas: ${applied.join(", ")}`);
    if (cfg.NODE_ENV !== "production" && !cfg.STRIPE_SECRET_KEY) stripeKeyStored = await adminStripeKeyStored(migrator);
    if (cfg.NODE_ENV === "production") {
      const refused = operatorBootError(mergeOperatorIdentity(await storedOperator(migrator), cfg));
      if (refused) {
        console.error(refused);
        process.exit(1);
      }
    }
  } finally {
    await migrator.end();
  }
  clock.mark("migrações");

  const app = express();
  app.disable("x-powered-by");
  // Once shutdown begins every response closes its connection: keep-alive clients reconnect elsewhere.
  let stopping = false;
  app.use((_req, res, next) => {
    if (stopping) res.setHeader("Connection", "close");
    next();
  });
  // Who may set X-Forwarded-For (TRUST_PROXY, default loopback): req.ip is the right-most untrusted hop.
  app.set("trust proxy", cfg.TRUST_PROXY);
  // Every response counted by method, route template and status (server/http-metrics.ts; issue 24).
  const routes: { labels?: RouteLabeler } = {}; // the build's route templates, once it is loaded
  app.use(httpMetrics(() => routes.labels));
  // TRACE, CONNECT and other methods no route serves: 405 before anything else runs (server/method-guard.ts).
  app.use(refuseUnservedMethods);
  // Prometheus metrics on this port only with METRICS_TOKEN (bearer), else 404 (server/metrics-endpoint.ts).
  app.use("/metrics", metricsHandler(cfg.METRICS_TOKEN));
  // req.ip into Remix through a header the client cannot set (app/services/platform/client-ip.server.ts).
  app.use((req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? "";
    next();
  });
  // PRODUCT.md §7's alias and fallback paths reach their primary path's handler (server/api-aliases.ts).
  app.use(apiAliases);
  // A fresh nonce per response: only Remix's own inline scripts (hydration data, module loader) run.
  app.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  });
  app.use(
    helmet({
      contentSecurityPolicy: dev
        ? false
        : {
            directives: {
              "default-src": ["'self'"],
              "script-src": ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce as string}'`],
              "style-src": ["'self'", "'unsafe-inline'"],
              "img-src": ["'self'", "data:"],
              "connect-src": ["'self'"],
              // The no-JavaScript subscribe and portal forms answer a redirect to Stripe's hosted pages.
              "form-action": ["'self'", "https://checkout.stripe.com", "https://billing.stripe.com"],
              "upgrade-insecure-requests": null,
            },
          },
      crossOriginEmbedderPolicy: false,
      // Not helmet's no-referrer: with it Chromium sends `Origin: null` on plain form POSTs and the
      // Origin checks reject every no-JavaScript form. same-origin still leaks nothing cross-site.
      referrerPolicy: { policy: "same-origin" },
    }),
  );
  // Personal data in every page and API reply: no-store unless a response sets its own caching (static files).
  app.use(noStoreByDefault);
  // Never compress a stream: zlib holds small writes back (our SSE, and the embedded simulator's pricing stream).
  const streaming = (req: express.Request) =>
    String(req.headers.accept).includes("text/event-stream") || req.path.startsWith("/api/stream/") || req.path.endsWith("/pricing/stream");
  // Pages, data requests and API replies are compressed at zlib level 1 (issue 13: level 6 cost 2.5× the CPU for
  // ~15 % fewer bytes); static scripts and styles, sent once and cached a year, keep level 6 (ADR 0031).
  const staticText = (res: express.Response) => /javascript|text\/css/.test(String(res.getHeader("Content-Type") ?? ""));
  app.use(compression({ filter: (req, res) => !streaming(req) && staticText(res) && compression.filter(req, res) }));
  app.use(compression({ level: 1, filter: (req, res) => !streaming(req) && !staticText(res) && compression.filter(req, res) }));

  let remixHandler: express.RequestHandler | undefined;
  app.use((req, res, next) => (remixHandler || req.path.startsWith("/oanda-sim") || req.path.startsWith(STRIPE_SIM_MOUNT) ? next() : res.status(503).json({ message: "Servidor iniciando..." })));

  // Listen before loading the app so the in-process simulator URL knows the real port (PORT may be 0).
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(cfg.PORT, cfg.HOST, () => resolve(s));
  });
  // Idle keep-alive sockets outlive the clients' own idle timeouts (browsers, proxies, load balancers at
  // 60 s): with Node's 5 s default a request sent as the server drops the socket fails with ECONNRESET.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const port = (server.address() as { port: number }).port;
  // METRICS_PORT: `GET /metrics` on a second small server bound to HOST (no token: keep it off the public network).
  const metricsServer = cfg.METRICS_PORT === undefined ? undefined : await startMetricsServer(cfg.METRICS_PORT, cfg.HOST);
  if (metricsServer) log(`Métricas em http://${cfg.HOST}:${metricsServer.port}/metrics`);
  clock.mark("listen");
  runtime.port = port;
  // The final config: the bound port, APP_URL and the simulator's OANDA URLs derived from it.
  cfg = withRuntime(cfg, runtime);

  let closeSim: (() => Promise<void>) | undefined;
  if (cfg.OANDA_MODE === "sim") {
    closeSim = await mountSimulator(app, {
      mountPath: "/oanda-sim",
      dataDir: path.resolve(root, cfg.SIM_DATA_DIR),
      speed: cfg.SIM_SPEED,
      statePath: path.resolve(cfg.DATA_DIR, "sim-state.json"),
      cacheDir: path.resolve(cfg.DATA_DIR),
    });
    clock.mark("simulador");
  }

  // Billing offline (issue 9): the Stripe simulator, unless a real key is configured (environment or
  // admin settings) or this is production.
  let closeStripeSim: (() => Promise<void>) | undefined;
  if (cfg.NODE_ENV !== "production" && !cfg.STRIPE_SECRET_KEY && !stripeKeyStored) {
    const stripeSim = await mountStripeSimulator(app, { appPort: port, appUrl: cfg.APP_URL, statePath: path.resolve(cfg.DATA_DIR, "stripe-sim-state.json") });
    closeStripeSim = stripeSim.close;
    runtime.stripeEmbedded = stripeSim.embedded;
    cfg = withRuntime(cfg, runtime);
    clock.mark("stripe");
  }

  app.use(limitRequestBodies);
  app.use(authRateLimits(cfg.AUTH_RATE_LIMIT));
  app.use(rejectCrossSiteMutations(cfg.APP_URL));
  app.use(requireJsonApiBodies);

  let build: ServerBuild;
  let closeVite: (() => Promise<void>) | undefined;
  if (dev) {
    const vite = await import("vite");
    const before = { int: process.listeners("SIGINT"), term: process.listeners("SIGTERM") };
    const viteServer = await vite.createServer({ root, server: { middlewareMode: true } });
    for (const sig of ["SIGINT", "SIGTERM"] as const)
      for (const l of process.listeners(sig)) if (!(sig === "SIGINT" ? before.int : before.term).includes(l)) process.removeListener(sig, l);
    app.use(viteServer.middlewares);
    build = (await viteServer.ssrLoadModule("virtual:remix/server-build")) as ServerBuild;
    configureBuild(build, cfg);
    remixHandler = createRequestHandler({
      build: () => viteServer.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>,
    });
    closeVite = () => viteServer.close();
  } else {
    // Every file of the client build has an extension: a path without one (a page, `/`) skips the static
    // handlers' fs stat/open calls (issue 24: one to three per page request, on every page).
    const fileLike = (req: express.Request) => /\.[^/]*$/.test(req.path);
    const assets = express.static(path.join(buildDir!, "client/assets"), { immutable: true, maxAge: "1y" });
    const publicFiles = express.static(path.join(buildDir!, "client"), { maxAge: "1h" });
    app.use("/assets", (req, res, next) => (fileLike(req) ? assets(req, res, next) : next()));
    app.use((req, res, next) => (fileLike(req) ? publicFiles(req, res, next) : next()));
    build = await buildLoading!;
    configureBuild(build, cfg);
    // Two handlers over the two halves of the build, `/api/*` and the rest (ADR 0031): each matches only its routes.
    const halves = splitBuild(build);
    const getLoadContext = (_req: express.Request, res: express.Response) => ({ cspNonce: res.locals.cspNonce as string });
    const apiHandler = createRequestHandler({ build: halves.api, mode: "production", getLoadContext });
    const pageHandler = createRequestHandler({ build: halves.pages, mode: "production", getLoadContext });
    remixHandler = (req, res, next) => (isApiPath(req.path) ? apiHandler : pageHandler)(req, res, next);
  }
  // `app.use`, not `app.all("*")`: a route pattern makes Express decode the path as a parameter, and a
  // malformed escape (`/api/x/%ZZ`) then became Express's own HTML 400; the Remix router copes with it.
  const background = build.entry.module as unknown as EntryModule;
  // Server-sent events (ADR 0017): long-lived responses written by the price hub, before Remix.
  const streams = background.handleStreamRequest;
  if (streams) app.use("/api/stream", (req, res, next) => void streams(req, res, next));
  app.use((req, res, next) => remixHandler!(req, res, next));
  routes.labels = routeLabeler(build.routes);
  clock.mark("build");

  const { logins } = await background.startBackground({ printLogins: embedded !== undefined });
  clock.mark(cfg.WORKERS === "on" ? "fila e workers" : "fila");

  const url = `http://localhost:${port}`;
  log(`Pronto em ${url}  (corretora: ${cfg.OANDA_MODE === "sim" ? `simulador OANDA, SIM_SPEED=${cfg.SIM_SPEED}` : "OANDA real"}; workers: ${cfg.WORKERS}; React: ${reactBuildLoaded()}); início: ${clock.summary()}`);
  for (const line of logins) log(line);

  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    const t0 = Date.now();
    background.markShuttingDown?.(); // /ready: 503 "encerrando" from now on
    log(`${signal} recebido: encerrando... (limite ${SHUTDOWN_GRACE_MS / 1000} s)`);
    const watchdog = setTimeout(() => {
      console.error("[servidor] encerramento demorou demais; saindo à força.");
      process.exit(1);
    }, SHUTDOWN_WATCHDOG_MS);
    watchdog.unref();
    // Stop accepting: the listener closes, idle keep-alive sockets too; requests in flight finish.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections?.();
    // SSE clients get `server_shutdown` and their responses end; their sockets are idle then.
    await background.closeStreams?.().catch((e) => console.error(e));
    server.closeIdleConnections?.();
    // Running ticks and jobs, within what is left of the bound.
    const left = SHUTDOWN_GRACE_MS - (Date.now() - t0);
    const stopped = await background.stopBackground(Math.max(2_000, left)).catch((e: unknown) => {
      console.error(e);
      return { ticksLeft: -1 };
    });
    const ticksLeft = stopped?.ticksLeft ?? 0;
    server.closeAllConnections?.();
    await closed;
    await metricsServer?.close().catch((e) => console.error(e));
    await closeSim?.().catch((e) => console.error(e));
    await closeStripeSim?.().catch((e) => console.error(e));
    await closeVite?.().catch(() => {});
    await embedded?.stop().catch((e) => console.error(e));
    const took = Date.now() - t0;
    if (ticksLeft !== 0 || took > SHUTDOWN_GRACE_MS) {
      console.error(`[servidor] encerrado fora do limite: ${took} ms (limite ${SHUTDOWN_GRACE_MS} ms)${ticksLeft > 0 ? `, ${ticksLeft} ciclo(s) ainda em andamento` : ticksLeft < 0 ? ", falha ao parar os workers" : ""}.`);
      process.exit(1);
    }
    log(`encerrado. (${took} ms)`);
    process.exit(0);
  }
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

/**
 * Which build of react-dom's server renderer this process loaded ("produção", "desenvolvimento" or "não
 * carregado"), read from the CommonJS module cache (ESM imports of CommonJS packages land there too): the
 * "Pronto" line shows it so an operator sees a development build serving pages (ADR 0040).
 */
function reactBuildLoaded(): string {
  const loaded = Object.keys(createRequire(import.meta.url).cache).filter((p) => /react-dom-server[^/]*\.node\./.test(p));
  if (loaded.some((p) => p.includes(".production"))) return "produção";
  return loaded.length ? "desenvolvimento" : "não carregado";
}

/** Whether an admin stored a Stripe secret key in the settings (then the simulator is not mounted). */
async function adminStripeKeyStored(sql: postgres.Sql): Promise<boolean> {
  return !!(await settingValue<{ secretKey?: string }>(sql, "stripe"))?.secretKey;
}

main().catch((err) => {
  console.error("[servidor] falha ao iniciar:", err);
  process.exit(1);
});

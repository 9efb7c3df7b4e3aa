/**
 * Configuration, parsed once at boot and passed in (DESIGN.md §5, ADR 0009).
 * Variable names are fixed by DESIGN.md §5 (tests outside the repo rely on them).
 * A bad value throws `ConfigError` whose message names the variable.
 *
 * Flow: server/index.ts reads the environment once (server/env.ts), `parseConfig(env)`, then fills
 * what only the running process knows with `withRuntime(cfg, {port, databaseUrl, secrets})` (the
 * bound port, the embedded database, the local secrets, and from them APP_URL and the simulator's
 * OANDA URLs) and hands the result to the app with `setConfig` (through the Remix build's entry,
 * which has its own module graph). Services read it with `config()`; nothing reads or writes
 * `process.env` after boot.
 */
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { z } from "zod";
import { parseCrashSpec, type CrashSpec } from "./crash-points";

const port = z.coerce.number().int().min(0).max(65535);
const url = z.url();
const onOff = z.enum(["on", "off"]);

/** Express's named ranges (proxy-addr) accepted in TRUST_PROXY. */
const PROXY_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** One TRUST_PROXY entry: a named range, an IP address or a CIDR subnet (`10.0.0.0/8`, `fd00::/8`). */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [addr, bits, extra] = entry.split("/");
  const family = isIP(addr ?? "");
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY → Express's `trust proxy` setting (issue 8 item 9): which proxies in front of the app
 * may set `X-Forwarded-For`. `req.ip` is then the right-most address that is not a trusted proxy.
 * - `false` / `off` / `0`: no proxy; `req.ip` is the socket's address;
 * - a hop count `N` (1–10): the last N hops are proxies (e.g. `1` behind one load balancer);
 * - a comma-separated list of named ranges (`loopback`, `linklocal`, `uniquelocal`), IPs and CIDR
 *   subnets (e.g. `loopback, 10.0.0.0/8`).
 * `true` (trust every hop, i.e. the client's own left-most entry) is refused: it lets a client choose its IP.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): string | number | false => {
    const lower = v.toLowerCase();
    if (lower === "false" || lower === "off" || lower === "0") return false;
    if (/^\d+$/.test(lower)) {
      const hops = Number(lower);
      if (hops <= 10) return hops;
      ctx.addIssue({ code: "custom", message: "número de proxies entre 0 e 10" });
      return z.NEVER;
    }
    if (lower === "true" || lower === "on" || lower === "*") {
      ctx.addIssue({ code: "custom", message: "'true' confia em qualquer X-Forwarded-For (o cliente escolheria o próprio IP); use o número de proxies ou os endereços deles" });
      return z.NEVER;
    }
    const entries = lower.split(",").map((e) => e.trim()).filter(Boolean);
    const bad = entries.find((e) => !isProxyEntry(e));
    if (!entries.length || bad !== undefined) {
      ctx.addIssue({ code: "custom", message: `valor inválido${bad ? ` '${bad}'` : ""}: use false, um número de proxies, ou endereços/sub-redes (ex.: loopback, 10.0.0.0/8)` });
      return z.NEVER;
    }
    return entries.join(",");
  });

export const OANDA_REAL_HOSTS = {
  practice: { api: "https://api-fxpractice.oanda.com", stream: "https://stream-fxpractice.oanda.com" },
  live: { api: "https://api-fxtrade.oanda.com", stream: "https://stream-fxtrade.oanda.com" },
} as const;

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port.default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  APP_URL: url.optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "deve começar com postgres:// ou postgresql://").optional(),
  DATA_DIR: z.string().min(1).default("./.data"),
  SESSION_SECRET: z.string().min(16, "precisa de pelo menos 16 caracteres").optional(),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "deve ter 64 caracteres hexadecimais (32 bytes, AES-256)")
    .optional(),
  OANDA_MODE: z.enum(["sim", "oanda"]).default("sim"),
  OANDA_PRACTICE_API_URL: url.optional(),
  OANDA_PRACTICE_STREAM_URL: url.optional(),
  OANDA_LIVE_API_URL: url.optional(),
  OANDA_LIVE_STREAM_URL: url.optional(),
  SIM_SPEED: z.coerce.number().positive().max(100_000).default(1),
  SIM_DATA_DIR: z.string().min(1).default("data"),
  /**
   * Long-history candle folder of the backtest page (issue 21; app/services/backtest/long-history.server.ts),
   * `<PAIR>_H1.csv` BID files read in place, resolved from the working directory. The source is offered
   * only while the folder exists; a path that does not exist turns it off.
   */
  FX_LONG_DIR: z.string().min(1).default("../shared/data/fx-long"),
  SIM_PORT: port.default(4001),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "deve começar com smtp:// ou smtps://").optional(),
  MAIL_FROM: z.string().min(3).optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_BASE: url.optional(),
  VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  VAPID_SUBJECT: z.string().min(1).optional(),
  /**
   * Extra push services a subscription endpoint may point at, comma-separated (a self-hosted push
   * service; the tests' local one): a bare name allows port 443 only, `host:port` exactly that port
   * (issue 24). The browsers' own services are always allowed, on 443 (app/lib/push.ts KNOWN_PUSH_SERVICES).
   */
  PUSH_SERVICE_HOSTS: z
    .string()
    .optional()
    .transform((v) => (v ?? "").split(",").map((h) => h.trim().toLowerCase()).filter(Boolean)),
  /**
   * ForexFactory-style weekly JSON feed of the economic calendar (app/services/trading/calendar.server.ts,
   * ADR 0018), e.g. https://nfs.faireconomy.media/ff_calendar_thisweek.json; unset: the shipped
   * data/calendar files.
   */
  NEWS_CALENDAR_URL: url.optional(),
  ADMIN_EMAIL: z.email().optional(),
  /** The operator's public identity on the legal pages (issue 22 item 10); all required in production. */
  OPERATOR_COMPANY: z.string().min(2).optional(),
  OPERATOR_CNPJ: z.string().regex(/^\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}$/, "CNPJ com 14 dígitos (00.000.000/0000-00)").optional(),
  OPERATOR_ADDRESS: z.string().min(5).optional(),
  OPERATOR_DPO_NAME: z.string().min(2).optional(),
  OPERATOR_DPO_EMAIL: z.email().optional(),
  SUPPORT_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8, "precisa de pelo menos 8 caracteres").optional(),
  WORKERS: onOff.default("on"),
  /**
   * E-mail verification before the first session (PRODUCT.md §4, §7 Auth; app/services/identity/registration.server.ts):
   * `on` — register answers `token: null` with `needsVerification` and login waits for the link; `off` — the
   * account is created verified and register answers with a working session token, as login does.
   */
  EMAIL_VERIFICATION: onOff.default("on"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** POSTs per IP per 15 minutes on the auth endpoints (server/rate-limits.ts); the e2e run raises it. */
  AUTH_RATE_LIMIT: z.coerce.number().int().positive().default(20),
  /**
   * Calls per user per minute of the costly on-demand actions (POST /api/notifications/test and
   * /api/trades/ai/loop/run-once), counted in PostgreSQL (app/services/platform/user-rate-limit.server.ts);
   * the test harness raises it.
   */
  USER_ACTION_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  /** Which proxies may set X-Forwarded-For (server/index.ts `trust proxy`); see `trustProxy`. */
  TRUST_PROXY: trustProxy.default("loopback"),
  /**
   * Prometheus metrics (issue 24; server/metrics-endpoint.ts): METRICS_PORT serves `GET /metrics` on a second
   * HTTP server bound to HOST (0: any free port), with no token — keep it off the public network;
   * METRICS_TOKEN serves `/metrics` on the app's port to `Authorization: Bearer <token>` only. Neither set:
   * `/metrics` answers 404 (never public).
   */
  METRICS_PORT: port.optional(),
  METRICS_TOKEN: z.string().trim().min(16, "precisa de pelo menos 16 caracteres").max(512).optional(),
  /**
   * Bot ticks run at once by this process's tick scheduler (app/services/trading/tick-scheduler.server.ts, ADR
   * 0024); a stalled broker holds one of them, not the others. Ticks wait on the broker and the
   * database: 64 measured 5,736 bot-ticks/min on one process where 16 gave 4,223 (docs/BENCHMARKS.md "Bots").
   */
  TICK_CONCURRENCY: z.coerce.number().int().min(1).max(128).default(64),
  /**
   * Backtests computed at once by this process, each in its own worker thread (issue 24, ADR 0039;
   * app/services/backtest/worker-pool.server.ts); more runs wait in the queue. Default half the
   * cores, at least 1 (1 on 2 cores: the other core keeps serving the pages and ticking the bots).
   */
  BACKTEST_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(Math.max(1, Math.floor(availableParallelism() / 2))),
  /**
   * Wall-time budget of one backtest's compute, seconds (issue 24, ADR 0039): past it the worker
   * thread is stopped and the run fails with a Portuguese reason. Default 720: above the slowest
   * long-history run measured under load (≈530 s, docs/BENCHMARKS.md), below the 900 s a queued run may wait.
   */
  BACKTEST_TIMEOUT_SEC: z.coerce.number().int().min(5).max(3000).default(720),
  /**
   * Deadline of one bot tick, seconds (trading/tick-runner.server.ts): past it the tick's broker calls are abandoned,
   * the error is stored on the bot and the lock released. At most 90: a tick ends well within a
   * few due slots of its bot (a slot that comes while it runs is skipped: the user's lock is held).
   */
  TICK_TIMEOUT_SEC: z.coerce.number().int().min(5).max(90).default(45),
  /**
   * Sync age, seconds (ADR 0027, account-state.server.ts `syncDue`): a steady bot tick works from the
   * stored account state without asking the broker for its transactions while that state was
   * confirmed by a sync in the bot's current window of this length (windows offset per bot, so
   * syncs spread evenly); any order, AI close or bot stop syncs first whatever the age. A close at
   * the broker (stop loss, take profit) is learned within this age plus one tick interval. 0 = sync
   * every tick. 300 s: ≈0.2 transaction reads per bot-tick at 60 s, so 20,000 bots fit OANDA's
   * 120 requests/s per IP (core/oanda/http.ts).
   */
  ACCOUNT_SYNC_MAX_AGE_SEC: z.coerce.number().int().min(0).max(1800).default(300),
  /**
   * Per-attempt timeout of a request to OANDA, ms (core/oanda/http.ts), and retries of a failed
   * idempotent GET (network error, 5xx, 429). A tick's deadline cancels both (trading/tick-signal.server.ts). Tests
   * with broker faults shorten them (tests/integration/broker-faults.test.ts).
   */
  OANDA_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  OANDA_RETRIES: z.coerce.number().int().min(0).max(5).default(3),
  /**
   * The egress plan (ADR 0041, broker/egress.server.ts): local source addresses this process's OANDA requests
   * leave from (comma-separated IPs of this host; each token always from the same one), each with its own
   * budget of OANDA_IP_REQUESTS_PER_SECOND (OANDA: 120 REST requests a second per client IP, PROTOCOL.md §5).
   * Empty: the OS picks the source and the process has one budget. Processes of one deployment take disjoint lists.
   */
  OANDA_EGRESS_ADDRESSES: z
    .string()
    .optional()
    .transform((v) => (v ?? "").split(",").map((a) => a.trim()).filter(Boolean))
    .refine((list) => list.every((a) => isIP(a) !== 0), "OANDA_EGRESS_ADDRESSES: informe endereços IP separados por vírgula")
    .refine((list) => new Set(list).size === list.length, "OANDA_EGRESS_ADDRESSES: endereço repetido"),
  OANDA_IP_REQUESTS_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(120),
  /**
   * Live prices over SSE (app/services/streams, ADR 0017): heartbeat interval of /api/stream/* (ms),
   * open SSE connections per process and per user (429 beyond), and how long the shared upstream
   * OANDA pricing stream stays open after its last listener left (ms). Tests shorten the first and last.
   */
  SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  SSE_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(100_000).default(5_000),
  SSE_MAX_PER_USER: z.coerce.number().int().min(1).max(100_000).default(10),
  /**
   * Abuse bounds of /api/stream/* (issue 24: 2,000 open streams stalled the process): open SSE connections
   * per client IP (`req.ip`, TRUST_PROXY; 429 beyond), and the event-loop delay (p99 over the last second,
   * ms) above which new streams are refused with 503 + Retry-After before the loop starves (0 = never).
   */
  SSE_MAX_PER_IP: z.coerce.number().int().min(1).max(100_000).default(50),
  SSE_SHED_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  PRICE_STREAM_IDLE_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  /**
   * Test harness fault injection (tests/integration/crash-restart.test.ts, crash-random.test.ts): the
   * process kills itself at named points of ticks, reconciles and closes — the n-th call of a point, or
   * each call with a seeded probability (app/services/platform/crash-points.ts). Refused when NODE_ENV=production.
   */
  CRASH_AT: z
    .string()
    .transform((v, ctx): CrashSpec => {
      try {
        return parseCrashSpec(v);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    })
    .optional(),
});

/** The environment as given, validated (before anything is derived from it). */
export type EnvConfig = z.infer<typeof schema>;

/** The operator's identity variables (issue 22 item 10); in production each must be set here or stored by an admin (server/index.ts checks at boot). */
export const OPERATOR_VARS = ["OPERATOR_COMPANY", "OPERATOR_CNPJ", "OPERATOR_ADDRESS", "OPERATOR_DPO_NAME", "OPERATOR_DPO_EMAIL", "SUPPORT_EMAIL"] as const;

export type Config = Readonly<
  Omit<EnvConfig, "APP_URL"> & {
    /** Public base URL: APP_URL, else `http://localhost:<bound port>`. */
    APP_URL: string;
    /** Broker hosts resolved for the mode: real OANDA, or the embedded simulator. */
    oanda: Readonly<Record<"practice" | "live", { api: string; stream: string }>>;
    /** The validated environment as given, from which the other fields were derived. */
    given: Readonly<EnvConfig>;
    /** The in-process Stripe simulator (server/stripe-sim-mount.ts), when mounted: no STRIPE_SECRET_KEY, not production. */
    stripeEmbedded?: Readonly<StripeEmbedded>;
  }
>;

/** What only the running process knows, filled in after boot steps (listen, embedded database, local secrets). */
export interface RuntimeValues {
  /** The port actually bound (PORT may be 0: any free port). */
  port?: number;
  /** The embedded database's URL, when DATABASE_URL is unset. */
  databaseUrl?: string;
  /** Local secrets from DATA_DIR, used only when the variable is unset. */
  sessionSecret?: string;
  encryptionKey?: string;
  /** Where the in-process simulator is mounted (default `http://127.0.0.1:<port>/oanda-sim`). */
  simBaseUrl?: string;
  /** The in-process Stripe simulator's API base and keys, when boot mounted it. */
  stripeEmbedded?: StripeEmbedded;
}

/** How the app reaches the embedded Stripe simulator: its API base (`STRIPE_API_BASE` form) and the keys it accepts and signs with. */
export interface StripeEmbedded {
  apiBase: string;
  secretKey: string;
  webhookSecret: string;
}

export class ConfigError extends Error {}

/** Empty strings count as unset (a blank line in an env file must not override a default). */
function withoutBlanks(env: Record<string, string | undefined>) {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
}

/**
 * Parses and validates the environment. With NODE_ENV=production, SESSION_SECRET and ENCRYPTION_KEY
 * are required, CRASH_AT is refused and OANDA_MODE must be `oanda` (no embedded simulator).
 * @param simBaseUrl where the in-process simulator is mounted (mode `sim`), e.g. `http://127.0.0.1:3000/oanda-sim`.
 * @throws ConfigError naming the first bad variable, e.g. `PORT: Invalid input: expected number`.
 */
export function parseConfig(env: Readonly<Record<string, string | undefined>>, simBaseUrl?: string): Config {
  const result = schema.safeParse(withoutBlanks(env));
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Configuração inválida:\n  ${lines.join("\n  ")}`);
  }
  const c = result.data;
  if (c.NODE_ENV === "production") {
    for (const name of ["SESSION_SECRET", "ENCRYPTION_KEY"] as const) {
      if (!c[name]) throw new ConfigError(`Configuração inválida:\n  ${name}: obrigatório quando NODE_ENV=production`);
    }
    if (c.CRASH_AT) throw new ConfigError("Configuração inválida:\n  CRASH_AT: injeção de falhas só fora de produção");
    // The embedded simulator's control API mints broker users and moves the clock: never in production (ADR 0011).
    if (c.OANDA_MODE !== "oanda")
      throw new ConfigError(
        "Configuração inválida:\n  OANDA_MODE: defina OANDA_MODE=oanda quando NODE_ENV=production (o simulador OANDA embutido é só para desenvolvimento, testes e demonstração)",
      );
    // The operator's identity (legal pages) may also be stored by an admin: checked at boot, after the
    // migrations, by server/index.ts (operatorBootError in app/services/platform/operator.server.ts).
  }
  return derive(Object.freeze(c), simBaseUrl === undefined ? {} : { simBaseUrl });
}

/**
 * The configuration with the runtime values filled in: PORT becomes the bound port, and APP_URL,
 * the simulator's OANDA URLs (mode `sim`), DATABASE_URL and the secrets are derived from them unless
 * the environment set them.
 */
export function withRuntime(cfg: Config, runtime: RuntimeValues): Config {
  return derive(cfg.given, runtime);
}

function derive(given: Readonly<EnvConfig>, rt: RuntimeValues): Config {
  const port = rt.port ?? given.PORT;
  const sim = rt.simBaseUrl ?? `http://127.0.0.1:${port}/oanda-sim`;
  const defaults =
    given.OANDA_MODE === "oanda"
      ? OANDA_REAL_HOSTS
      : {
          practice: { api: `${sim}/practice`, stream: `${sim}/practice` },
          live: { api: `${sim}/live`, stream: `${sim}/live` },
        };
  return Object.freeze({
    ...given,
    PORT: port,
    APP_URL: given.APP_URL ?? `http://localhost:${port}`,
    DATABASE_URL: given.DATABASE_URL ?? rt.databaseUrl,
    SESSION_SECRET: given.SESSION_SECRET ?? rt.sessionSecret,
    ENCRYPTION_KEY: given.ENCRYPTION_KEY ?? rt.encryptionKey,
    oanda: Object.freeze({
      practice: {
        api: given.OANDA_PRACTICE_API_URL ?? defaults.practice.api,
        stream: given.OANDA_PRACTICE_STREAM_URL ?? defaults.practice.stream,
      },
      live: {
        api: given.OANDA_LIVE_API_URL ?? defaults.live.api,
        stream: given.OANDA_LIVE_STREAM_URL ?? defaults.live.stream,
      },
    }),
    given,
    ...(rt.stripeEmbedded ? { stripeEmbedded: Object.freeze({ ...rt.stripeEmbedded }) } : {}),
  });
}

declare global {
  // A globalThis slot (like the DB pool) so Vite dev reloads of this module keep the boot's config.
  var __forexIaConfig: Config | undefined;
}

/** Hands the boot's configuration to this module graph (server/index.ts, via the Remix entry; tests). */
export function setConfig(cfg: Config): void {
  globalThis.__forexIaConfig = cfg;
}

/**
 * The process configuration, as handed over at boot.
 * @throws Error when called before `setConfig` (only the boot code reads the environment)
 */
export function config(): Config {
  const cfg = globalThis.__forexIaConfig;
  if (!cfg) throw new Error("Configuração não iniciada: server/index.ts chama setConfig(cfg) antes de servir (testes: setConfig(parseConfig({...}))).");
  return cfg;
}

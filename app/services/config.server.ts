/**
 * Configuration, read once at boot from the environment and validated with zod.
 * Variable names are fixed by DESIGN.md §5 (tests outside the repo rely on them).
 * A bad value throws `ConfigError` whose message names the variable.
 */
import { z } from "zod";

const port = z.coerce.number().int().min(0).max(65535);
const url = z.url();
const onOff = z.enum(["on", "off"]);

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
  SIM_PORT: port.default(4001),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "deve começar com smtp:// ou smtps://").optional(),
  MAIL_FROM: z.string().min(3).optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_BASE: url.optional(),
  VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  VAPID_SUBJECT: z.string().min(1).optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8, "precisa de pelo menos 8 caracteres").optional(),
  WORKERS: onOff.default("on"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Config = z.infer<typeof schema> & {
  APP_URL: string;
  /** Broker hosts resolved for the mode: real OANDA, or the embedded simulator. */
  oanda: Record<"practice" | "live", { api: string; stream: string }>;
};

export class ConfigError extends Error {}

/** Empty strings count as unset (a blank line in an env file must not override a default). */
function withoutBlanks(env: Record<string, string | undefined>) {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
}

/**
 * Parses and validates the environment.
 * @param simBaseUrl where the in-process simulator is mounted (mode `sim`), e.g. `http://127.0.0.1:3000/oanda-sim`.
 * @throws ConfigError naming the first bad variable, e.g. `PORT: Invalid input: expected number`.
 */
export function parseConfig(env: Record<string, string | undefined>, simBaseUrl?: string): Config {
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
  }
  const appUrl = c.APP_URL ?? `http://localhost:${c.PORT}`;
  const sim = simBaseUrl ?? `http://127.0.0.1:${c.PORT}/oanda-sim`;
  const defaults =
    c.OANDA_MODE === "oanda"
      ? OANDA_REAL_HOSTS
      : {
          practice: { api: `${sim}/practice`, stream: `${sim}/practice` },
          live: { api: `${sim}/live`, stream: `${sim}/live` },
        };
  return {
    ...c,
    APP_URL: appUrl,
    oanda: {
      practice: {
        api: c.OANDA_PRACTICE_API_URL ?? defaults.practice.api,
        stream: c.OANDA_PRACTICE_STREAM_URL ?? defaults.practice.stream,
      },
      live: {
        api: c.OANDA_LIVE_API_URL ?? defaults.live.api,
        stream: c.OANDA_LIVE_STREAM_URL ?? defaults.live.stream,
      },
    },
  };
}

let cached: Config | undefined;
/** The process configuration (parsed on first use from `process.env`). */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** The process logger (pino, level from LOG_LEVEL). Never log broker tokens or passwords. */
import pino from "pino";
import { config } from "./config.server";

declare global {
  var __logger: pino.Logger | undefined;
}

export function logger(): pino.Logger {
  globalThis.__logger ??= pino({
    level: config().LOG_LEVEL,
    redact: { paths: ["token", "*.token", "password", "*.password", "authorization", "*.authorization"], censor: "[oculto]" },
  });
  return globalThis.__logger;
}

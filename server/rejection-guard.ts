/**
 * What the process does with a promise rejection nobody handled (Node's default: print it and exit).
 * A database outage produces some inside libraries we do not control: pg-boss 10.4's worker loop calls
 * `complete()`/`fail()` without awaiting them (node_modules/pg-boss/src/manager.js `watch`), so when
 * PostgreSQL drops while a job finishes, "Connection terminated unexpectedly" rejects unhandled and the
 * process died (1 outage in 3-8 with WORKERS=on, issue 24; tests/integration/readiness.test.ts flips the
 * database several times). Those are logged and the process stays up: the job's row stays active and pg-boss
 * expires and retries it, `/ready` answers 503 until the database returns. Any other unhandled rejection is
 * still fatal (logged, exit 1), as before.
 */

/** Error codes and messages of a lost or refused database connection (node-postgres, postgres.js, the OS, PostgreSQL's 57P0x). */
const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT", "57P01", "57P02", "57P03"]);
const CONNECTION_MESSAGES = /Connection terminated|connection timeout|terminating connection due to administrator command|the database system is (starting up|shutting down)|write CONNECTION_CLOSED|Client has encountered a connection error/i;

/** Whether `err` (or its `cause`, two levels) is a lost or refused database connection. */
export function isConnectionLoss(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 2) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.code === "string" && CONNECTION_CODES.has(e.code)) return true;
  if (typeof e.message === "string" && CONNECTION_MESSAGES.test(e.message)) return true;
  return isConnectionLoss(e.cause, depth + 1);
}

/**
 * Installs the process's `unhandledRejection` handler (server/index.ts, at boot): connection losses are
 * logged with `warn` and survived; anything else is logged with `fatal` and exits 1.
 * @param log where the lines go (the boot's console logger)
 * @param exit how to exit (tests pass a spy)
 */
export function guardUnhandledRejections(log: { warn(msg: string): void; fatal(msg: string): void }, exit: (code: number) => void = (c) => process.exit(c)): void {
  process.on("unhandledRejection", (reason) => {
    const text = reason instanceof Error ? (reason.stack ?? reason.message) : String(reason);
    if (isConnectionLoss(reason)) {
      log.warn(`conexão com o banco perdida numa promessa sem tratamento (o processo continua; /ready responde 503 até o banco voltar): ${reason instanceof Error ? reason.message : String(reason)}`);
      return;
    }
    log.fatal(`rejeição sem tratamento: ${text}`);
    exit(1);
  });
}

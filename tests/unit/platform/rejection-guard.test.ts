/** server/rejection-guard.ts: which unhandled rejections the process survives (database connection losses) and which still end it. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { guardUnhandledRejections, isConnectionLoss } from "../../../server/rejection-guard";

describe("isConnectionLoss", () => {
  it("knows node-postgres, postgres.js, the OS's and PostgreSQL's connection errors, also as a cause", () => {
    expect(isConnectionLoss(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error("write CONNECTION_CLOSED db:5432"), { code: "CONNECTION_CLOSED" }))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))).toBe(true);
    expect(isConnectionLoss(new Error("Connection terminated due to connection timeout", { cause: new Error("Connection terminated unexpectedly") }))).toBe(true);
    expect(isConnectionLoss(new Error("falhou", { cause: Object.assign(new Error("x"), { code: "ECONNRESET" }) }))).toBe(true);
  });

  it("does not excuse programming errors or other failures", () => {
    expect(isConnectionLoss(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isConnectionLoss(Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: "23505" }))).toBe(false);
    expect(isConnectionLoss("texto")).toBe(false);
    expect(isConnectionLoss(undefined)).toBe(false);
  });
});

describe("guardUnhandledRejections", () => {
  const before = process.listeners("unhandledRejection");
  afterEach(() => {
    for (const l of process.listeners("unhandledRejection")) if (!before.includes(l)) process.removeListener("unhandledRejection", l);
  });

  it("logs a connection loss and keeps the process; anything else is fatal (exit 1)", () => {
    const log = { warn: vi.fn(), fatal: vi.fn() };
    const exit = vi.fn();
    guardUnhandledRejections(log, exit);
    const handler = process.listeners("unhandledRejection").find((l) => !before.includes(l))!;
    handler(new Error("Connection terminated unexpectedly"), Promise.resolve());
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(exit).not.toHaveBeenCalled();
    handler(new TypeError("x is not a function"), Promise.resolve());
    expect(log.fatal).toHaveBeenCalledWith(expect.stringContaining("x is not a function"));
    expect(exit).toHaveBeenCalledWith(1);
  });
});

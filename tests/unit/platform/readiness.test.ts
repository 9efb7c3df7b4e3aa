/**
 * Issue 24, `/ready`'s judgement (app/services/platform/health.server.ts `readinessReasons`): each part that
 * is not ready gives its Portuguese reason; a process with everything in order has none. The database's
 * flip is proved end to end in tests/integration/readiness.test.ts.
 */
import { describe, expect, it } from "vitest";
import { BROKER_FRESH_MS, readinessReasons, type ReadinessFacts } from "../../../app/services/platform/health.server";

const ok: ReadinessFacts = { shuttingDown: false, pendingMigrations: [], workersRequired: true, workersStarted: true, brokerAgeMs: 1_000 };

describe("readinessReasons", () => {
  it("is empty when the database answers, migrations are applied, workers started and the broker answered within a minute", () => {
    expect(readinessReasons(ok)).toEqual([]);
    expect(readinessReasons({ ...ok, workersRequired: false, workersStarted: false })).toEqual([]);
  });

  it("names each part that is not ready", () => {
    expect(readinessReasons({ ...ok, shuttingDown: true })).toEqual(["encerrando: o servidor recebeu o sinal de parada"]);
    expect(readinessReasons({ ...ok, databaseError: "connect ECONNREFUSED" })).toEqual(["banco de dados indisponível (connect ECONNREFUSED)"]);
    expect(readinessReasons({ ...ok, pendingMigrations: ["0030_x.sql", "0031_y.sql"] })).toEqual(["migrações pendentes: 0030_x.sql, 0031_y.sql"]);
    expect(readinessReasons({ ...ok, workersStarted: false })).toEqual(["workers ainda não iniciados (WORKERS=on)"]);
    expect(readinessReasons({ ...ok, brokerAgeMs: BROKER_FRESH_MS + 1 })).toEqual(["corretora sem resposta no último minuto"]);
    expect(readinessReasons({ ...ok, brokerAgeMs: undefined })).toEqual(["corretora sem resposta no último minuto"]);
  });

  it("reports every reason at once", () => {
    expect(readinessReasons({ shuttingDown: true, databaseError: "x", pendingMigrations: [], workersRequired: true, workersStarted: false })).toHaveLength(4);
  });
});

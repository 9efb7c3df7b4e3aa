/**
 * The statement batcher of the bot ticks (app/services/platform/sql-batch.server.ts, ADR 0032): the ticks a
 * claim starts together send one statement for all, each still gets its own answer, a statement
 * PostgreSQL refuses fails only the tick whose item is bad (the others are sent again one by one),
 * and a lost connection fails every tick of the batch (outcome unknown: nothing is sent twice).
 */
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { StatementBatcher } from "../../../app/services/platform/sql-batch.server";

/** A fake statement runner: records each statement's items; refuses any batch holding "bad" (as PostgreSQL would). */
function fakeStatements(opts: { lost?: boolean } = {}) {
  const statements: string[][] = [];
  const run = async (items: string[]) => {
    statements.push(items);
    await new Promise((r) => setTimeout(r, 5));
    if (opts.lost) throw Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" });
    if (items.includes("bad")) throw new postgres.PostgresError("invalid input syntax for type uuid");
    return items.map((i) => i.toUpperCase());
  };
  const batcher = new StatementBatcher<string, string>({ many: run, one: async (i) => (await run([i]))[0]! });
  return { statements, batcher };
}

describe("StatementBatcher", () => {
  it("items submitted together go in one statement; each caller gets its own result", async () => {
    const { statements, batcher } = fakeStatements();
    const results = await Promise.all(["a", "b", "c"].map((i) => batcher.submit(i)));
    expect(results).toEqual(["A", "B", "C"]);
    expect(statements).toEqual([["a", "b", "c"]]);
  });

  it("items arriving while a statement is in flight go together in the next one", async () => {
    const { statements, batcher } = fakeStatements();
    const first = batcher.submit("a");
    await new Promise((r) => setTimeout(r, 1)); // "a" is on its way
    const later = ["b", "c", "d"].map((i) => batcher.submit(i));
    expect(await Promise.all([first, ...later])).toEqual(["A", "B", "C", "D"]);
    expect(statements).toEqual([["a"], ["b", "c", "d"]]);
  });

  it("a batch PostgreSQL refuses is sent again item by item: only the bad item's caller fails", async () => {
    const { statements, batcher } = fakeStatements();
    const settled = await Promise.allSettled(["a", "bad", "c"].map((i) => batcher.submit(i)));
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(settled[0]).toMatchObject({ value: "A" });
    expect(statements[0]).toEqual(["a", "bad", "c"]);
    expect(statements.slice(1).sort()).toEqual([["a"], ["bad"], ["c"]]);
  });

  it("a lost connection fails every caller of the batch and sends nothing again (its outcome is unknown)", async () => {
    const { statements, batcher } = fakeStatements({ lost: true });
    const settled = await Promise.allSettled(["a", "b"].map((i) => batcher.submit(i)));
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected"]);
    expect(statements).toEqual([["a", "b"]]);
  });
});

/**
 * Deployment (issue 13, ADR 0026, README "Deployment"): a `WORKERS=off` process is web only — it serves
 * `/health` with its queue reachable but runs no pg-boss cron clock and no maintenance, so it creates no
 * job by itself; a `WORKERS=on` process on the same database does run the cron. A boot re-writes no
 * queue whose options did not change.
 */
import { describe, expect, it } from "vitest";
import { startAppServer } from "../setup/app-server";
import { createTestDatabase } from "../setup/db";

describe("web-only process (WORKERS=off)", () => {
  it("starts no pg-boss cron or maintenance and creates no job; a WORKERS=on process does run the cron; no queue is re-written at boot", { timeout: 180_000 }, async () => {
    const db = await createTestDatabase();
    try {
      const web = await startAppServer({ DATABASE_URL: db.url, WORKERS: "off" });
      const health = await fetch(`${web.url}/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { queue: { workers: string } }).queue.workers).toBe("off");
      // pg-boss runs its first cron pass right after start() (setImmediate): give it time to show.
      await new Promise((r) => setTimeout(r, 3_000));
      const [offState] = await db.sql<{ cron_on: Date | null; maintained_on: Date | null }[]>`select cron_on, maintained_on from pgboss.version`;
      expect(offState).toEqual({ cron_on: null, maintained_on: null });
      expect((await db.sql`select 1 from pgboss.job`).length).toBe(0);
      const queuesBefore = await db.sql<{ name: string; updated_on: Date }[]>`select name, updated_on from pgboss.queue order by name`;
      expect(await web.stop()).toBe(0);

      const worker = await startAppServer({ DATABASE_URL: db.url, WORKERS: "on" });
      try {
        let cronOn: Date | null = null;
        for (let i = 0; i < 100 && !cronOn; i++) {
          const [row] = await db.sql<{ cron_on: Date | null }[]>`select cron_on from pgboss.version`;
          cronOn = row?.cron_on ?? null;
          if (!cronOn) await new Promise((r) => setTimeout(r, 200));
        }
        expect(cronOn).not.toBeNull();
      } finally {
        await worker.stop();
      }
      // Both boots found every queue with its options: none was updated (or re-created).
      const queuesAfter = await db.sql<{ name: string; updated_on: Date }[]>`select name, updated_on from pgboss.queue where name = any(${queuesBefore.map((q) => q.name)}) order by name`;
      expect(queuesAfter).toEqual(queuesBefore);
    } finally {
      await db.drop();
    }
  });
});

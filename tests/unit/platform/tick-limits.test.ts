/**
 * Issue 8 item 8: the per-process tick limits are configuration (`TICK_CONCURRENCY`,
 * `TICK_TIMEOUT_SEC`). Since ADR 0024 ticks are not pg-boss jobs: the tick scheduler claims due bots
 * from the `bots` table (app/services/trading/tick-scheduler.server.ts), so no tick queue is created, and a
 * database that still has the old `bot-tick` queue gets it deleted at boot (app/services/platform/queue/boss.ts).
 */
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../../app/services/platform/config.server";
import { ALL_QUEUES, RETIRED_QUEUES } from "../../../app/services/platform/queue/queues";

describe("tick limits", () => {
  it("defaults to 64 ticks at once and a 45 s deadline", () => {
    const c = parseConfig({});
    expect(c.TICK_CONCURRENCY).toBe(64);
    expect(c.TICK_TIMEOUT_SEC).toBe(45);
  });

  it.each([
    ["TICK_CONCURRENCY", "0"],
    ["TICK_CONCURRENCY", "129"],
    ["TICK_CONCURRENCY", "dois"],
    ["TICK_TIMEOUT_SEC", "4"],
    ["TICK_TIMEOUT_SEC", "91"],
  ])("refuses %s=%s naming the variable", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it("accepts a 90 s deadline; bot ticks are no pg-boss queue any more and the old one is retired", () => {
    expect(parseConfig({ TICK_TIMEOUT_SEC: "90" }).TICK_TIMEOUT_SEC).toBe(90);
    expect(ALL_QUEUES.map((q) => q.name)).not.toContain("bot-tick");
    expect(RETIRED_QUEUES).toContain("bot-tick");
  });
});

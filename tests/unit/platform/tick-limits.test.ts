/**
 * Issue 8 item 8: the per-process tick limits are configuration (`TICK_CONCURRENCY`,
 * `TICK_TIMEOUT_SEC`), and the tick job's pg-boss settings agree with them: a running tick always
 * ends (its deadline) before pg-boss could take its job for a dead one, and pg-boss never retries a
 * tick (the handler chains the next one, which is the retry).
 */
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../../app/services/config.server";
import { botTickQueue, TICK_JOB_EXPIRE_SECONDS } from "../../../jobs/queues";

describe("tick limits", () => {
  it("defaults to 4 ticks at once and a 45 s deadline", () => {
    const c = parseConfig({});
    expect(c.TICK_CONCURRENCY).toBe(4);
    expect(c.TICK_TIMEOUT_SEC).toBe(45);
  });

  it.each([
    ["TICK_CONCURRENCY", "0"],
    ["TICK_CONCURRENCY", "33"],
    ["TICK_CONCURRENCY", "dois"],
    ["TICK_TIMEOUT_SEC", "4"],
    ["TICK_TIMEOUT_SEC", "91"],
  ])("refuses %s=%s naming the variable", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it("the longest deadline ends before the tick job can expire, and tick jobs are never retried by pg-boss", () => {
    expect(parseConfig({ TICK_TIMEOUT_SEC: "90" }).TICK_TIMEOUT_SEC).toBe(90);
    expect(90 + 15).toBeLessThanOrEqual(TICK_JOB_EXPIRE_SECONDS);
    expect(botTickQueue.options.expireInSeconds).toBe(TICK_JOB_EXPIRE_SECONDS);
    expect(botTickQueue.options.retryLimit).toBe(0);
  });
});

/**
 * Issue 24 (ADR 0039): the backtest budget is configuration — `BACKTEST_CONCURRENCY` (runs computed at
 * once per process, default half the cores and at least 1: one on the 2-core server) and
 * `BACKTEST_TIMEOUT_SEC` (wall time of one run, default 720 s, 5–3000) — and the queue registers as many
 * one-job workers as runs may compute at once.
 */
import { availableParallelism } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, parseConfig, setConfig } from "../../../app/services/platform/config.server";
import { backtestJobWorkers } from "../../../jobs/backtest-handler";

describe("backtest budget", () => {
  afterEach(() => setConfig(parseConfig({})));

  it("defaults to half the cores (at least 1) and 720 s", () => {
    const c = parseConfig({});
    expect(c.BACKTEST_CONCURRENCY).toBe(Math.max(1, Math.floor(availableParallelism() / 2)));
    expect(c.BACKTEST_TIMEOUT_SEC).toBe(720);
  });

  it.each([
    ["BACKTEST_CONCURRENCY", "0"],
    ["BACKTEST_CONCURRENCY", "33"],
    ["BACKTEST_CONCURRENCY", "um"],
    ["BACKTEST_TIMEOUT_SEC", "4"],
    ["BACKTEST_TIMEOUT_SEC", "3001"],
  ])("refuses %s=%s naming the variable", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it("registers one backtest job worker per run allowed at once", () => {
    setConfig(parseConfig({ BACKTEST_CONCURRENCY: "3" }));
    expect(backtestJobWorkers()).toBe(3);
  });
});

/**
 * CRASH_AT, the crash tests' fault injection (app/services/platform/crash-points.ts): its forms, its refusal
 * of bad values and of production, and the seeded draws that make a failing crash run replayable.
 */
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../../app/services/platform/config.server";
import { CRASH_POINTS, parseCrashSpec, seededRandom } from "../../../app/services/platform/crash-points";

describe("CRASH_AT", () => {
  it("names points, with the call number to die at (first by default)", () => {
    expect(parseCrashSpec("after-order")).toEqual({ kind: "at", points: [{ point: "after-order", nth: 1 }] });
    expect(parseCrashSpec("reconcile-before-commit@3, after-close")).toEqual({
      kind: "at",
      points: [
        { point: "reconcile-before-commit", nth: 3 },
        { point: "after-close", nth: 1 },
      ],
    });
  });

  it("takes a seeded probability over every point or a list", () => {
    expect(parseCrashSpec("random:42:0.05")).toEqual({ kind: "random", seed: 42, probability: 0.05, points: [...CRASH_POINTS] });
    expect(parseCrashSpec("random:7:1:before-order,after-order")).toEqual({ kind: "random", seed: 7, probability: 1, points: ["before-order", "after-order"] });
  });

  it.each(["nowhere", "after-order@0", "after-order@x", "random:1:0", "random:1:1.5", "random:x:0.1", "random:1:0.1:nowhere", ""])("refuses %j", (v) => {
    expect(() => parseCrashSpec(v)).toThrow();
  });

  it("is a config field, refused with its name when malformed and in production", () => {
    expect(parseConfig({ CRASH_AT: "before-intent@2" }).CRASH_AT).toEqual({ kind: "at", points: [{ point: "before-intent", nth: 2 }] });
    expect(() => parseConfig({ CRASH_AT: "nowhere" })).toThrow(/CRASH_AT: ponto de falha desconhecido 'nowhere'/);
    const prod = { NODE_ENV: "production", SESSION_SECRET: "x".repeat(32), ENCRYPTION_KEY: "a".repeat(64), OANDA_MODE: "oanda" };
    expect(() => parseConfig({ ...prod, CRASH_AT: "after-order" })).toThrow(ConfigError);
    const operator = { OPERATOR_COMPANY: "Empresa Ltda.", OPERATOR_CNPJ: "12345678000190", OPERATOR_ADDRESS: "Rua A, 1", OPERATOR_DPO_NAME: "Ana", OPERATOR_DPO_EMAIL: "dpo@a.com", SUPPORT_EMAIL: "s@a.com" };
    expect(parseConfig({ ...prod, ...operator }).CRASH_AT).toBeUndefined();
  });

  it("draws the same numbers in [0, 1) for the same seed", () => {
    const a = seededRandom(123), b = seededRandom(123), c = seededRandom(124);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 1000 }, () => c())).not.toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
  });
});

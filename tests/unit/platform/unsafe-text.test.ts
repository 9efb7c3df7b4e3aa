/**
 * The one rule on request text (issue 24, app/lib/unsafe-text.ts): NUL and unpaired surrogates are
 * found at any depth, in values and keys; well-formed text (accents, emoji's surrogate pairs, RTL) passes.
 */
import { describe, expect, it } from "vitest";
import { hasUnsafeText, isUnsafeString } from "../../../app/lib/unsafe-text";

describe("isUnsafeString", () => {
  it("refuses NUL and lone surrogates, high or low, anywhere in the string", () => {
    for (const s of ["\u0000", "a\u0000b", "\ud800", "x\ud800y", "\udfff", "a\udc00", "\ud83d", "💥\ud800", "\udc00💥"]) expect(isUnsafeString(s), JSON.stringify(s)).toBe(true);
  });
  it("accepts well-formed text: accents, emoji (surrogate pairs), RTL, other control characters", () => {
    for (const s of ["", "Ωmega ção", "💥💥", "\ud83d\udca5", "‮rtl", "tab\tnova\nlinha", "%00", "\\u0000"]) expect(isUnsafeString(s), JSON.stringify(s)).toBe(false);
  });
});

describe("hasUnsafeText", () => {
  it("walks values and keys of objects and arrays at any depth", () => {
    expect(hasUnsafeText({ a: { b: [1, "ok", { c: "x\u0000" }] } })).toBe(true);
    expect(hasUnsafeText({ a: { ["k\ud800"]: 1 } })).toBe(true);
    expect(hasUnsafeText(["ok", ["\udfff"]])).toBe(true);
    expect(hasUnsafeText({ a: { b: [1, "ok", null, true, { c: "💥" }] } })).toBe(false);
    expect(hasUnsafeText(null)).toBe(false);
    expect(hasUnsafeText(42)).toBe(false);
  });
  it("a deeply nested body does not overflow the stack", () => {
    let v: unknown = "fim\u0000";
    for (let i = 0; i < 200_000; i++) v = [v];
    expect(hasUnsafeText(v)).toBe(true);
  });
});

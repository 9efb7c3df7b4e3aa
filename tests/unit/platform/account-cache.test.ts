/**
 * Issue 8 item 7: the screens' account reads are cached for a moment and shared, so a user
 * refreshing (or a client polling) does not turn every request into a broker call.
 */
import { describe, expect, it } from "vitest";
import { ACCOUNT_STATE_TTL_MS, cachedAccountState, forgetAccountState } from "../../../app/services/account-cache.server";

describe("account state cache", () => {
  it("shares one broker call between concurrent reads and serves it until the TTL", async () => {
    let calls = 0;
    const load = async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 30));
      return { balance: String(calls) };
    };
    const reads = await Promise.all(Array.from({ length: 20 }, () => cachedAccountState("u1:A:summary", load)));
    expect(calls).toBe(1);
    expect(new Set(reads.map((r) => r.balance))).toEqual(new Set(["1"]));
    expect((await cachedAccountState("u1:A:summary", load)).balance).toBe("1");
    await new Promise((r) => setTimeout(r, ACCOUNT_STATE_TTL_MS + 50));
    expect((await cachedAccountState("u1:A:summary", load)).balance).toBe("2");
  });

  it("forgets one user's entries only (after a close); failures are not cached", async () => {
    let n = 0;
    const load = async () => ({ v: ++n });
    await cachedAccountState("u2:A:summary", load);
    await cachedAccountState("u3:A:summary", load);
    forgetAccountState("u2");
    expect((await cachedAccountState("u2:A:summary", load)).v).toBe(3);
    expect((await cachedAccountState("u3:A:summary", load)).v).toBe(2);
    await expect(cachedAccountState("u4:A:summary", async () => Promise.reject(new Error("broker down")))).rejects.toThrow("broker down");
    expect((await cachedAccountState("u4:A:summary", load)).v).toBe(4);
  });
});

/**
 * Issue 8 item 7: the screens' account reads are cached for a moment and shared, so a user
 * refreshing (or a client polling) does not turn every request into a broker call; issue 13: past
 * the TTL the last value is answered while one reload runs (a page view does not wait on the broker).
 */
import { describe, expect, it } from "vitest";
import { ACCOUNT_STATE_TTL_MS, cachedAccountState, forgetAccountState } from "../../../app/services/broker/account-cache.server";

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
    // Issue 13: past the TTL a screen gets the last value at once while one reload runs…
    const reloads = await Promise.all(Array.from({ length: 5 }, () => cachedAccountState("u1:A:summary", load)));
    expect(reloads.map((r) => r.balance)).toEqual(["1", "1", "1", "1", "1"]);
    await new Promise((r) => setTimeout(r, 60));
    expect(calls).toBe(2);
    // …and the next read has the reloaded value.
    expect((await cachedAccountState("u1:A:summary", load)).balance).toBe("2");
  });

  it("waits for a fresh value when the caller cannot show a stale one (open trades)", async () => {
    let calls = 0;
    const load = async () => ({ n: ++calls });
    expect((await cachedAccountState("u5:open", load, { stale: false })).n).toBe(1);
    await new Promise((r) => setTimeout(r, ACCOUNT_STATE_TTL_MS + 50));
    expect((await cachedAccountState("u5:open", load, { stale: false })).n).toBe(2);
  });

  it("serves nothing stale after a forget (a close or a trade event): the next read waits for the broker", async () => {
    let calls = 0;
    const load = async () => ({ n: ++calls });
    await cachedAccountState("u6:A:summary", load);
    await new Promise((r) => setTimeout(r, ACCOUNT_STATE_TTL_MS + 50));
    forgetAccountState("u6");
    expect((await cachedAccountState("u6:A:summary", load)).n).toBe(2);
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

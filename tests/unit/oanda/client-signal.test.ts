/**
 * A client-wide `signal` (a bot tick's deadline, trading/tick-signal.server.ts) ends a request with its retries and
 * backoff waits: after the abort nothing more is sent, even when a 429 asked to retry later (issue 8:
 * the retry used to fire after the tick was over); and a 2xx body cut off mid-way is a retryable
 * network error, not an invalid response.
 */
import { describe, expect, it } from "vitest";
import { createOandaClient } from "../../../core/oanda/client";
import { BrokerError } from "../../../core/oanda/errors";
import { systemClock } from "../../../app/services/platform/system-clock";

const base = { environment: "practice" as const, token: "tok-signal", apiUrl: "http://broker.test", streamUrl: "http://broker.test", clock: systemClock };

describe("client signal", () => {
  it("a 429 with Retry-After 30 s: the abort ends the backoff wait, the retry is never sent", async () => {
    let calls = 0;
    const fetch = async () => {
      calls++;
      return new Response(JSON.stringify({ errorMessage: "slow down" }), { status: 429, headers: { "retry-after": "30" } });
    };
    const ctl = new AbortController();
    const client = createOandaClient({ ...base, fetch, retries: 3, signal: ctl.signal });
    const reason = new Error("deadline");
    setTimeout(() => ctl.abort(reason), 50);
    const t0 = Date.now();
    await expect(client.listAccounts()).rejects.toBe(reason);
    expect(Date.now() - t0).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toBe(1);
    // Once aborted, nothing is sent at all.
    await expect(client.listAccounts()).rejects.toBe(reason);
    expect(calls).toBe(1);
  });

  it("a 200 whose body is cut off is a network error (retried), not invalid_response", async () => {
    let calls = 0;
    const fetch = async () => {
      calls++;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('{"accounts":[{"id":"101-'));
          c.error(new TypeError("terminated"));
        },
      });
      return new Response(body, { status: 200 });
    };
    const client = createOandaClient({ ...base, fetch, retries: 1, minRetryDelayMs: 1 });
    const err = await client.listAccounts().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokerError);
    expect(err).toMatchObject({ kind: "network", retryable: true });
    expect(calls).toBe(2);
  });
});

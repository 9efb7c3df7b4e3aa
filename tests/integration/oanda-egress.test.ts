/**
 * The egress plan (issue 24, ADR 0041) against OANDA's per-IP limit: the simulator refuses more than
 * `ipRequestsPerSecond` REST requests a second from one source address (429, like OANDA's 120 a second per
 * client IP). The product's clients (broker.server.ts `clientFor`) leave from the addresses of
 * OANDA_EGRESS_ADDRESSES, each token from one of them, each address within its own budget: a burst of many
 * users' requests spreads over the addresses and none is refused; from one address the same burst is paced
 * to the one budget (and still none refused), and unpaced it is refused.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor } from "../../app/services/broker/broker.server";
import { parseConfig, setConfig } from "../../app/services/platform/config.server";
import { startSimulator } from "../../server/simulator/server";
import { brokerEnv } from "../setup/broker-env";

const PER_IP = 20;
/** The product's budget per address: under the broker's limit, the margin for arrival jitter (the test shares one event loop with the simulator). */
const BUDGET = 15;
let sim: Awaited<ReturnType<typeof startSimulator>>;
let accounts: { token: string; accountId: string }[];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, dataDir: path.resolve(import.meta.dirname, "../../data"), startAt: "2026-01-14T10:00:00Z", ipRequestsPerSecond: PER_IP });
  accounts = Array.from({ length: 20 }, () => {
    const u = sim.sim.createUser("practice");
    return { token: u.token, accountId: u.accountIDs[0]! };
  });
}, 60_000);
afterAll(async () => {
  await sim?.close();
});

/** Every account's summary `times` times, all at once, through the product's clients; the wall time, ms. */
async function burst(times: number): Promise<number> {
  const started = Date.now();
  await Promise.all(accounts.flatMap((a) => Array.from({ length: times }, () => clientFor(a.token, "practice").getAccountSummary(a.accountId))));
  return Date.now() - started;
}

const use = (env: Record<string, string>) => setConfig(parseConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", OANDA_RETRIES: "0", ...brokerEnv(sim.url), ...env }));
const counts = () => sim.ipCounts();
const total = (c: ReturnType<typeof counts>, k: "answered" | "limited") => Object.values(c).reduce((s, e) => s + e[k], 0);

describe("OANDA egress addresses", () => {
  it("the simulator refuses an unpaced burst from one address beyond its per-IP limit", async () => {
    const before = total(counts(), "limited");
    const replies = await Promise.all(Array.from({ length: 3 * PER_IP }, () => fetch(`${sim.url}/practice/v3/accounts`, { headers: { authorization: `Bearer ${accounts[0]!.token}` } })));
    expect(replies.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    expect(replies.find((r) => r.status === 429)?.headers.get("retry-after")).toBe("1");
    expect(total(counts(), "limited")).toBeGreaterThan(before);
    await new Promise((r) => setTimeout(r, 1100)); // the next window
  });

  it("spreads many users' requests over the addresses, each within its budget: none refused", async () => {
    use({ OANDA_EGRESS_ADDRESSES: "127.0.0.2,127.0.0.3", OANDA_IP_REQUESTS_PER_SECOND: String(BUDGET) });
    const before = counts();
    await burst(3); // 60 requests: 30 a second per address would be refused; the budget paces them
    const after = counts();
    const sent = (ip: string) => (after[ip]?.answered ?? 0) - (before[ip]?.answered ?? 0);
    expect(sent("127.0.0.2")).toBeGreaterThan(0);
    expect(sent("127.0.0.3")).toBeGreaterThan(0);
    expect(sent("127.0.0.2") + sent("127.0.0.3")).toBe(60);
    expect(total(after, "limited")).toBe(total(before, "limited"));
    // A token always leaves from the same address.
    const again = counts();
    await clientFor(accounts[0]!.token, "practice").getAccountSummary(accounts[0]!.accountId);
    await clientFor(accounts[0]!.token, "practice").getAccountSummary(accounts[0]!.accountId);
    const moved = Object.entries(counts()).filter(([ip, c]) => c.answered - (again[ip]?.answered ?? 0) > 0);
    expect(moved).toHaveLength(1);
    expect(moved[0]![1].answered - (again[moved[0]![0]]?.answered ?? 0)).toBe(2);
  }, 30_000);

  it("from one address the same burst waits for the one budget (≥ 3 s for 60 requests at 15 a second), none refused", async () => {
    await new Promise((r) => setTimeout(r, 1100));
    use({ OANDA_EGRESS_ADDRESSES: "127.0.0.4", OANDA_IP_REQUESTS_PER_SECOND: String(BUDGET) });
    const before = counts();
    const ms = await burst(3);
    const after = counts();
    expect((after["127.0.0.4"]?.answered ?? 0) - (before["127.0.0.4"]?.answered ?? 0)).toBe(60);
    expect(total(after, "limited")).toBe(total(before, "limited"));
    expect(ms).toBeGreaterThanOrEqual(3000);
  }, 30_000);
});

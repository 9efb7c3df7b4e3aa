/**
 * Issue 8 item 9: which proxies may set `X-Forwarded-For` is configurable (`TRUST_PROXY`), the
 * client IP is the right-most hop that is not a trusted proxy, and every per-IP key uses that same
 * value (`req.ip`): the auth rate limiter, the per-IP limit of forgot/resend (stored in
 * `auth_email_requests.ip`) and the address recorded with a session. A client can neither pick
 * its address with a forged left-most `X-Forwarded-For` entry nor with the internal header.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../setup/app-server";
import { createTestDatabase, type TestDatabase } from "../setup/db";
import { markVerified } from "../setup/verify";

let db: TestDatabase;
let byDefault: AppServer;
let noProxy: AppServer;
let twoHops: AppServer;

beforeAll(async () => {
  db = await createTestDatabase();
  byDefault = await startAppServer({ DATABASE_URL: db.url, WORKERS: "off", AUTH_RATE_LIMIT: "2" });
  noProxy = await startAppServer({ DATABASE_URL: db.url, WORKERS: "off", TRUST_PROXY: "false" });
  twoHops = await startAppServer({ DATABASE_URL: db.url, WORKERS: "off", TRUST_PROXY: "2" });
});
afterAll(async () => {
  await Promise.all([byDefault?.stop(), noProxy?.stop(), twoHops?.stop()]);
  await db?.drop();
});

let n = 0;
/** POST /api/auth/forgot-password for a fresh e-mail; returns the IP the server recorded for it. */
async function recordedIp(app: AppServer, headers: Record<string, string>): Promise<string | null> {
  const email = `ip${++n}@exemplo.com`;
  const res = await fetch(`${app.url}/api/auth/forgot-password`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ email }) });
  expect(res.status).toBe(200);
  const [row] = await db.sql<{ ip: string | null }[]>`select ip from auth_email_requests where email = ${email}`;
  return row!.ip;
}

describe("TRUST_PROXY", () => {
  it("default (loopback): the right-most untrusted hop, never the client's own left-most entry; the socket address without the header", async () => {
    expect(await recordedIp(byDefault, { "x-forwarded-for": "6.6.6.6, 2.2.2.2" })).toBe("2.2.2.2");
    expect(await recordedIp(byDefault, {})).toBe("127.0.0.1");
    expect(await recordedIp(byDefault, { "x-forex-ia-client-ip": "7.7.7.7" })).toBe("127.0.0.1");
  });

  it("false: X-Forwarded-For is ignored", async () => {
    expect(await recordedIp(noProxy, { "x-forwarded-for": "6.6.6.6, 2.2.2.2" })).toBe("127.0.0.1");
  });

  it("a hop count: that many proxies are skipped from the right", async () => {
    expect(await recordedIp(twoHops, { "x-forwarded-for": "6.6.6.6, 5.5.5.5, 2.2.2.2" })).toBe("5.5.5.5");
  });

  it("the rate limiter keys on the same address: one bucket per real client, a forged left-most entry changes nothing", async () => {
    const login = (xff: string) =>
      fetch(`${byDefault.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": xff }, body: JSON.stringify({ email: `rl${++n}@exemplo.com`, password: "Errada123" }) });
    expect((await login("1.1.1.1, 3.3.3.3")).status).toBe(401);
    expect((await login("9.9.9.9, 3.3.3.3")).status).toBe(401);
    expect((await login("8.8.8.8, 3.3.3.3")).status).toBe(429);
    expect((await login("4.4.4.4")).status).toBe(401); // another client behind the same proxy
  });

  it("the session records the same address", async () => {
    const email = "sessao@exemplo.com";
    const reg = await fetch(`${noProxy.url}/api/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ firstName: "A", lastName: "B", email, password: "Senha123" }) });
    expect(reg.status).toBe(201);
    await markVerified(db.url, email);
    const res = await fetch(`${twoHops.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": "6.6.6.6, 5.5.5.5, 2.2.2.2" }, body: JSON.stringify({ email, password: "Senha123" }) });
    expect(res.status).toBe(200);
    const [s] = await db.sql<{ ip: string }[]>`select s.ip from sessions s join users u on u.id = s.user_id where u.email = ${email}`;
    expect(s!.ip).toBe("5.5.5.5");
  });

  it("boot refuses TRUST_PROXY=true, naming the variable", async () => {
    await expect(startAppServer({ DATABASE_URL: db.url, WORKERS: "off", TRUST_PROXY: "true" }, 30_000)).rejects.toThrow(/TRUST_PROXY:/);
  });
});

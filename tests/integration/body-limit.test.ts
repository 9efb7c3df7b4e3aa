/**
 * Issue 8 item 6: request body limits per route over real HTTP — the JSON API takes at most 64 kB,
 * page forms 256 kB; larger bodies get 413 with a Portuguese message (never a 500, nothing written),
 * a body of unknown length (chunked) gets 411, and bodies under the limit still reach the action.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../setup/app-server";
import { createTestDatabase, type TestDatabase } from "../setup/db";

let db: TestDatabase;
let app: AppServer;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startAppServer({ DATABASE_URL: db.url, WORKERS: "off", AUTH_RATE_LIMIT: "1000" });
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

const KB = 1024;
const jsonOf = (bytes: number) => JSON.stringify({ firstName: "A", lastName: "B", email: "grande@exemplo.com", password: "Senha123", pad: "x".repeat(bytes) });
const post = (p: string, body: string, type = "application/json", accept = "application/json") =>
  fetch(app.url + p, { method: "POST", headers: { "content-type": type, accept }, body });
const users = async () => ((await db.sql`select count(*)::int as n from users`) as unknown as [{ n: number }])[0].n;

describe("request body limits", () => {
  it("an anonymous 8 MB JSON body: 413 with a Portuguese message, nothing written, the server still answers", async () => {
    const before = await users();
    const res = await post("/api/auth/register", jsonOf(8 * 1024 * KB));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ success: false, message: "Requisição grande demais: o limite é de 64 kB.", error: "Requisição grande demais: o limite é de 64 kB." });
    expect(await users()).toBe(before);
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
  });

  it("JSON API: 64 kB, whatever the spelling of the path", async () => {
    for (const p of ["/api/auth/login", "/API/AUTH/LOGIN/", "/api/trades/ai/loop/start", "/api/inexistente"]) {
      expect((await post(p, jsonOf(70 * KB))).status, p).toBe(413);
    }
    // Under the limit the action runs (and validates as usual).
    const ok = await post("/api/auth/register", jsonOf(60 * KB));
    expect(ok.status).toBe(201);
  });

  it("page forms: 256 kB; a larger form gets 413 as text", async () => {
    const form = (bytes: number) => new URLSearchParams({ intent: "login", email: "a@exemplo.com", password: "Errada123", js: "1", pad: "x".repeat(bytes) }).toString();
    const big = await post("/auth", form(300 * KB), "application/x-www-form-urlencoded", "text/html");
    expect(big.status).toBe(413);
    expect(await big.text()).toBe("Requisição grande demais: o limite é de 256 kB.");
    expect((await post("/auth.data", form(300 * KB), "application/x-www-form-urlencoded", "*/*")).status).toBe(413);
    const ok = await post("/auth", form(200 * KB), "application/x-www-form-urlencoded", "text/html");
    expect(ok.status).toBe(401); // reached the action: wrong credentials
  });

  it("a chunked body (unknown length): 411, not read", async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const u = new URL(`${app.url}/api/auth/register`);
      const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } }, (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on("error", reject);
      req.write(jsonOf(KB));
      req.end();
    });
    expect(status).toBe(411);
    expect(JSON.parse(body).message).toMatch(/^Requisição sem tamanho declarado/);
  });
});

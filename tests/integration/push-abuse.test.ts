/**
 * Web push under abuse (issue 24, "Availability under abuse: Push") on the real server (production
 * build, its pg-boss workers, PostgreSQL):
 * - fairness: user A has 20 devices whose push service accepts the connection and never answers; user
 *   B's push, asked for right after A's three, reaches B's push service within seconds (measured;
 *   before the fix it waited behind A's 60 sends of 10 s on two workers: minutes);
 * - only the push service's own port: an endpoint of a known push service on another port, or of a
 *   listed host on a port not listed, is refused;
 * - endpoint theft: subscribing another user's endpoint is refused with 409 and the device keeps
 *   getting its owner's pushes.
 * The push services are local: an HTTPS server with a self-signed certificate (trusted through
 * NODE_EXTRA_CA_CERTS) that answers 201, and a TCP server that accepts and never answers.
 */
import { execFileSync } from "node:child_process";
import { createECDH, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import https from "node:https";
import net from "node:net";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, startAppServer, type AppServer } from "../setup/app-server";
import { createTestDatabase, type TestDatabase } from "../setup/db";
import { registerVerifiedAndLogin } from "../setup/verify";

let db: TestDatabase;
let app: AppServer;
let okServer: https.Server;
let hangServer: net.Server;
const hanging = new Set<net.Socket>();
let okHost = "";
let hangHost = "";
/** Push requests the answering service received: device name → time (ms since epoch). */
const received = new Map<string, number>();
let seq = 0;

/** A browser-like subscription (P-256 key, 16-byte auth) at `host`. */
function subscription(host: string, name: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { endpoint: `https://${host}/push/${name}`, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") } };
}

async function newUser() {
  const email = `pushabuse${Date.now()}${seq++}@teste.com`;
  const login = await registerVerifiedAndLogin<{ token: string; user: { id: string } }>(app.url, db.url, { firstName: "Ana", lastName: "Lima", email, password: "Senha123" });
  return { call: apiClient(app.url, login.token), userId: login.user.id };
}

async function until<T>(fn: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "push-abuse-ca-"));
  const keyFile = path.join(dir, "key.pem");
  const certFile = path.join(dir, "cert.pem");
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", keyFile, "-out", certFile, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
  okServer = https.createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (req, res) => {
    req.resume();
    req.on("end", () => {
      received.set(decodeURIComponent((req.url ?? "").split("/").pop() ?? ""), Date.now());
      res.writeHead(201).end();
    });
  });
  hangServer = net.createServer((socket) => {
    hanging.add(socket); // accepted, never answered (not even the TLS handshake)
    socket.on("close", () => hanging.delete(socket));
    socket.on("error", () => {});
  });
  await new Promise<void>((r) => okServer.listen(0, "127.0.0.1", r));
  await new Promise<void>((r) => hangServer.listen(0, "127.0.0.1", r));
  okHost = `127.0.0.1:${(okServer.address() as AddressInfo).port}`;
  hangHost = `127.0.0.1:${(hangServer.address() as AddressInfo).port}`;
  db = await createTestDatabase();
  app = await startAppServer({ DATABASE_URL: db.url, OANDA_MODE: "sim", AUTH_RATE_LIMIT: "100000", NODE_EXTRA_CA_CERTS: certFile, PUSH_SERVICE_HOSTS: `${okHost},${hangHost}`, SESSION_SECRET: "segredo-de-sessao-do-teste-push-abuse-0123" });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await db?.drop();
  for (const s of hanging) s.destroy();
  await new Promise((r) => hangServer?.close(r));
  await new Promise((r) => okServer?.close(r));
});

describe("push fairness", () => {
  it("20 endpoints of one user that never answer do not delay another user's push", async () => {
    const a = await newUser();
    const b = await newUser();
    for (let i = 0; i < 20; i++) expect((await a.call("POST", "/api/push/subscribe", { subscription: subscription(hangHost, `a${i}`) })).status).toBe(201);
    expect((await b.call("POST", "/api/push/subscribe", { subscription: subscription(okHost, "b0") })).status).toBe(201);

    for (let i = 0; i < 3; i++) expect((await a.call<{ devices: number }>("POST", "/api/push/test")).body.devices).toBe(20);
    await until(() => hanging.size, (n) => n > 0, 10_000); // A's pushes are on the wire, hanging
    const asked = Date.now();
    expect((await b.call("POST", "/api/push/test")).status).toBe(201);
    const at = await until(() => received.get("b0"), (t) => t !== undefined, 30_000);
    const waitedMs = at === undefined ? Infinity : at - asked;
    console.log(`push de B entregue em ${waitedMs} ms com 20 endpoints de A pendurados`);
    expect(waitedMs).toBeLessThan(8_000);
  }, 60_000);
});

describe("subscription endpoints", () => {
  it("only the push service's own port: another port of a known service or a listed host is refused", async () => {
    const u = await newUser();
    for (const endpoint of [`https://fcm.googleapis.com:8443/fcm/send/x`, `https://updates.push.services.mozilla.com:22/wpush/v2/x`, `https://127.0.0.1:1/push/x`, `https://127.0.0.1/push/x`]) {
      const r = await u.call<{ message: string }>("POST", "/api/push/subscribe", { subscription: { ...subscription(okHost, "x"), endpoint } });
      expect(r.status, endpoint).toBe(400);
      expect(r.body.message).toBe("Serviço de push desconhecido: use um navegador compatível.");
    }
    expect((await db.sql`select 1 from push_subscriptions where user_id = ${u.userId}`).length).toBe(0);
  });

  it("another user's endpoint is refused (409) and the device keeps receiving its owner's pushes", async () => {
    const owner = await newUser();
    const thief = await newUser();
    const device = subscription(okHost, `victim-${randomBytes(4).toString("hex")}`);
    expect((await owner.call("POST", "/api/push/subscribe", { subscription: device })).status).toBe(201);
    const stolen = await thief.call<{ message: string }>("POST", "/api/push/subscribe", { subscription: { ...device, keys: subscription(okHost, "k").keys } });
    expect(stolen.status).toBe(409);
    expect(stolen.body.message).toBe("Este dispositivo já recebe as notificações de outra conta. Desative-as nessa conta antes de ativar aqui.");
    const alias = await thief.call("POST", "/api/notifications/subscribe", device);
    expect(alias.status).toBe(409);
    const rows = await db.sql<{ user_id: string; p256dh: string }[]>`select user_id, p256dh from push_subscriptions where endpoint = ${device.endpoint}`;
    expect(rows).toEqual([{ user_id: owner.userId, p256dh: device.keys.p256dh }]);
    // The owner's push still reaches the device; the thief has no device.
    const name = device.endpoint.split("/").pop()!;
    expect((await owner.call<{ devices: number }>("POST", "/api/push/test")).body.devices).toBe(1);
    expect(await until(() => received.has(name), (v) => v, 15_000)).toBe(true);
    expect((await thief.call<{ devices: number }>("POST", "/api/push/test")).body.devices).toBe(0);
  });
});

/**
 * Issue 24, liveness and readiness, against the real server (production build):
 * - `/ready` answers 200 when the database answers, the migrations are applied and the broker (the
 *   standalone simulator) answered; it flips to 503 with the database's
 *   reason when the database stops — a TCP proxy between the app and PostgreSQL closes its listener and
 *   destroys its sockets — and back to 200 when it returns; a migration missing from `schema_migrations`
 *   makes it 503 naming the file; `/health` stays 200 throughout (liveness).
 * - `/health`, `/api/health`, `/api/status` answer 200 (JSON `status: "degraded"`, broker not ok) while
 *   the broker is unreachable (OANDA urls at a closed port); `/ready` says why it is not ready.
 * - SIGTERM (server/index.ts, bound SHUTDOWN_GRACE_MS 25 s): an open stream gets `server_shutdown` and
 *   ends, and a WORKERS=on process with nothing running exits 0 well within the bound.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { brokerEnv } from "../setup/broker-env";
import { openSse } from "../setup/sse-client";
import { createTradingEnv, type TradingEnv } from "../setup/trading-env";
import { registerVerifiedAndLogin } from "../setup/verify";

/** A TCP proxy to `target` that can be stopped (listener closed, every socket destroyed) and reopened on the same port. */
async function tcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const open = async () => {
    const s = net.createServer((client) => {
      const up = net.connect(target.port, target.host);
      const done = () => {
        for (const x of [client, up]) {
          x.destroy();
          sockets.delete(x);
        }
      };
      for (const x of [client, up]) {
        sockets.add(x);
        x.on("error", done).on("close", done);
      }
      client.pipe(up);
      up.pipe(client);
    });
    await new Promise<void>((resolve, reject) => s.once("error", reject).listen(port, "127.0.0.1", resolve));
    port = (s.address() as net.AddressInfo).port;
    server = s;
  };
  const stop = async () => {
    const s = server;
    server = undefined;
    const closed = new Promise<void>((resolve) => (s ? s.close(() => resolve()) : resolve()));
    for (const x of sockets) x.destroy();
    sockets.clear();
    await closed;
  };
  await open();
  return { port: () => port, open, stop };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function get(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Polls `url` until its status is `status`; returns the last answer. */
async function until(url: string, status: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let last = await get(url);
  while (last.status !== status && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    last = await get(url);
  }
  return last;
}

let env: TradingEnv;
beforeAll(async () => {
  env = await createTradingEnv();
}, 120_000);
afterAll(async () => {
  await env?.close();
});

describe("/ready and the database", () => {
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let app: AppServer;
  beforeAll(async () => {
    const u = new URL(env.db.url);
    proxy = await tcpProxy({ host: u.hostname, port: Number(u.port || 5432) });
    u.hostname = "127.0.0.1";
    u.port = String(proxy.port());
    // A process with workers (pg-boss polling and completing jobs, the scheduler, the price hub): a database
    // outage must not end it (server/rejection-guard.ts: pg-boss's unawaited complete() rejected unhandled).
    app = await env.startApp({ DATABASE_URL: u.toString(), WORKERS: "on" });
  }, 120_000);
  afterAll(async () => {
    if (app && app.proc.exitCode !== null) console.log(app.output());
    await app?.kill();
    await proxy?.stop();
  });

  it("is 200 when all is well, 503 with the database's reason while it is stopped, 200 again when it returns", async () => {
    const ready = await until(`${app.url}/ready`, 200, 20_000);
    expect(ready).toEqual({ status: 200, body: { status: "ready", reasons: [] } });

    await proxy.stop();
    const down = await until(`${app.url}/ready`, 503, 20_000);
    expect(down.status).toBe(503);
    expect(down.body.status).toBe("not_ready");
    expect((down.body.reasons as string[]).some((r) => r.startsWith("banco de dados indisponível"))).toBe(true);
    // Liveness does not depend on the database: the process is alive.
    const health = await get(`${app.url}/health`);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: "degraded", database: { ok: false } });

    await proxy.open();
    const back = await until(`${app.url}/ready`, 200, 30_000);
    expect(back).toEqual({ status: 200, body: { status: "ready", reasons: [] } });
    // Three more outages while the workers run: the process survives each (it died 1 outage in 3-8 before).
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 3_000));
      await proxy.stop();
      await new Promise((r) => setTimeout(r, 4_000));
      await proxy.open();
      expect(app.proc.exitCode, app.output().slice(-2000)).toBeNull();
    }
    expect((await until(`${app.url}/ready`, 200, 30_000)).status).toBe(200);
    expect(app.proc.exitCode).toBeNull();
  }, 150_000);

  it("is 503 naming a migration file missing from schema_migrations", async () => {
    const [last] = await env.db.sql<{ name: string }[]>`select name from schema_migrations order by name desc limit 1`;
    await env.db.sql`delete from schema_migrations where name = ${last!.name}`;
    try {
      const r = await get(`${app.url}/ready`);
      expect(r.status).toBe(503);
      expect(r.body.reasons).toEqual([`migrações pendentes: ${last!.name}`]);
    } finally {
      await env.db.sql`insert into schema_migrations (name) values (${last!.name})`;
    }
    expect((await get(`${app.url}/ready`)).status).toBe(200);
  }, 30_000);
});

describe("/health while the broker is unreachable", () => {
  let app: AppServer;
  beforeAll(async () => {
    app = await env.startApp({ ...brokerEnv(`http://127.0.0.1:${await closedPort()}`), WORKERS: "off" });
  }, 120_000);
  afterAll(async () => {
    await app?.kill();
  });

  it("answers 200 on /health, /api/health and /api/status (broker reported not ok); /ready says the broker is silent", async () => {
    for (const p of ["/health", "/api/health", "/api/status"]) {
      const r = await get(app.url + p);
      expect(r.status, p).toBe(200);
      expect(r.body).toMatchObject({ status: "degraded", database: { ok: true }, broker: { mode: "oanda", ok: false } });
    }
    const ready = await get(`${app.url}/ready`);
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: "not_ready", reasons: ["corretora sem resposta no último minuto"] });
  }, 30_000);
});

describe("graceful shutdown", () => {
  it("SIGTERM: the open stream gets server_shutdown and ends; the process exits 0 within the bound", async () => {
    const app = await env.startApp({ WORKERS: "on" });
    const u = await registerVerifiedAndLogin(app.url, env.db.url, { firstName: "Ana", lastName: "Souza", email: `shutdown-${Date.now()}@teste.com`, password: "Senha123" });
    const c = await openSse(`${app.url}/api/stream/prices?instruments=EUR_USD`, { token: u.token });
    expect(c.status).toBe(200);
    await c.next((e) => e.event === "hello");
    const t0 = Date.now();
    const code = await app.stop();
    await c.ended;
    expect(c.events.some((e) => e.event === "server_shutdown")).toBe(true);
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(25_000);
    expect(app.output()).toMatch(/encerrado\. \(\d+ ms\)/);
  }, 60_000);
});

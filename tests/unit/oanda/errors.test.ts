/** Error mapping of the OANDA client: status → kind, retryable, translatable message (Portuguese text of PRODUCT.md §8); token redaction. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Clock } from "../../../core/clock";
import { createOandaClient } from "../../../core/oanda/client";
import { renderMsg } from "../../../core/i18n";
import { BrokerError, kindForStatus, messageFor, messagePtFor, redact } from "../../../core/oanda/errors";

const TOKEN = "0123456789abcdef-SECRET-fedcba9876543210";
const ACCOUNT = "101-004-1435156-001";

const instantClock: Clock = { now: () => new Date("2026-01-05T12:00:00Z"), sleep: () => Promise.resolve() };

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function serve(reply: (n: number) => Reply) {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const r = reply(n++);
      res.writeHead(r.status, { "Content-Type": "application/json", ...r.headers });
      res.end(typeof r.body === "string" ? r.body : JSON.stringify(r.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return { base: `http://127.0.0.1:${port}/practice`, count: () => n };
}

function client(base: string, logs?: unknown[]) {
  return createOandaClient({
    environment: "practice",
    token: TOKEN,
    apiUrl: base,
    streamUrl: base,
    clock: instantClock,
    retries: 0,
    ...(logs && {
      logger: {
        debug: (o, m) => void logs.push([o, m]),
        info: (o, m) => void logs.push([o, m]),
        warn: (o, m) => void logs.push([o, m]),
        error: (o, m) => void logs.push([o, m]),
      },
    }),
  });
}

async function failure(p: Promise<unknown>): Promise<BrokerError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(BrokerError);
  return e as BrokerError;
}

describe("status → BrokerError", () => {
  it.each([
    [401, { errorMessage: "Insufficient authorization to perform request." }, "auth", false, "Token inválido ou expirado. Verifique seu token."],
    [403, { errorMessage: "The provided request was forbidden." }, "forbidden", false, "Acesso negado. Verifique as permissões do seu token."],
    [404, { lastTransactionID: "2584", errorMessage: "The trade ID specified does not exist", errorCode: "NO_SUCH_TRADE" }, "not_found", false, "Erro na API da Oanda (404). Tente novamente."],
    [400, { errorMessage: "Maximum value for 'count' exceeded" }, "bad_request", false, "Erro na API da Oanda (400). Tente novamente."],
    [405, { errorMessage: "Method not allowed" }, "bad_request", false, "Erro na API da Oanda (405). Tente novamente."],
    [429, "", "rate_limited", true, "Erro na API da Oanda (429). Tente novamente."],
    [500, { errorMessage: "Internal Server Error" }, "server", true, "Erro na API da Oanda (500). Tente novamente."],
    [503, "<html>Service Unavailable</html>", "server", true, "Erro na API da Oanda (503). Tente novamente."],
  ])("%i", async (status, body, kind, retryable, messagePt) => {
    const s = await serve(() => ({ status, body }));
    const e = await failure(client(s.base).getTrade(ACCOUNT, "2585"));
    expect(e.status).toBe(status);
    expect(e.kind).toBe(kind);
    expect(e.retryable).toBe(retryable);
    expect(e.messagePt).toBe(messagePt);
    if (typeof body === "object") expect(e.errorMessage).toBe(body.errorMessage);
    if (status === 404) {
      expect(e.errorCode).toBe("NO_SUCH_TRADE");
      expect(e.lastTransactionID).toBe("2584");
    }
  });

  it("network error (connection refused) → kind network, status 0", async () => {
    const s = await serve(() => ({ status: 200 }));
    await closers.pop()!(); // close the server: port now refuses connections
    const e = await failure(client(s.base).listAccounts());
    expect(e).toMatchObject({
      status: 0,
      kind: "network",
      retryable: true,
      messagePt: "Erro de CORS ou conectividade. O servidor backend pode estar offline.",
    });
  });

  it("invalid bodies on 2xx → invalid_response", async () => {
    const s = await serve((n) => (n === 0 ? { status: 200, body: "<html>not json" } : { status: 200, body: { accounts: [{ tags: [] }] } }));
    const c = client(s.base);
    for (let i = 0; i < 2; i++) {
      const e = await failure(c.listAccounts());
      expect(e).toMatchObject({ kind: "invalid_response", status: 200, retryable: false, messagePt: "Resposta inválida da API da Oanda" });
    }
  });
});

describe("token never leaks", () => {
  it("not in messages, errorMessage or logs even if the server echoes it", async () => {
    const s = await serve(() => ({ status: 401, body: { errorMessage: `Bad token ${TOKEN}` } }));
    const logs: unknown[] = [];
    const e = await failure(client(s.base, logs).listAccounts());
    const all = JSON.stringify([e.message, e.messagePt, e.errorMessage, String(e), e.stack, logs]);
    expect(all).not.toContain(TOKEN);
    expect(e.errorMessage).toBe("Bad token ***");
  });

  it("not in logs of retried failures", async () => {
    const s = await serve((n) => (n < 1 ? { status: 503, body: {} } : { status: 200, body: { accounts: [] } }));
    const logs: unknown[] = [];
    const c = createOandaClient({
      environment: "practice", token: TOKEN, apiUrl: s.base, streamUrl: s.base, clock: instantClock,
      logger: { warn: (o, m) => void logs.push([o, m]) },
    });
    await c.listAccounts();
    expect(logs.length).toBeGreaterThan(0);
    expect(JSON.stringify(logs)).not.toContain(TOKEN);
  });
});

describe("helpers", () => {
  it("kindForStatus / messagePtFor / redact", () => {
    expect([401, 403, 404, 400, 416, 429, 500, 502].map(kindForStatus)).toEqual([
      "auth", "forbidden", "not_found", "bad_request", "bad_request", "rate_limited", "server", "server",
    ]);
    expect(messagePtFor("invalid_response", 200)).toBe("Resposta inválida da API da Oanda");
    expect(messagePtFor("server", 502)).toBe("Erro na API da Oanda (502). Tente novamente.");
    expect(redact("a TOK b TOK", "TOK")).toBe("a *** b ***");
    expect(redact("x", "")).toBe("x");
    const e = new BrokerError("m", { status: 0, kind: "network" });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("BrokerError");
  });
});

describe("translatable messages (ADR 0007)", () => {
  it("messageMsg is a `broker` catalog message; messagePt its Portuguese text", () => {
    const e = new BrokerError("m", { status: 401, kind: "auth" });
    expect(e.messageMsg).toEqual({ key: "broker:auth" });
    expect(e.messagePt).toBe("Token inválido ou expirado. Verifique seu token.");
    expect(renderMsg(e.messageMsg, "en")).toBe("Invalid or expired token. Check your token.");
    expect(renderMsg(e.messageMsg, "es")).toBe("Token inválido o caducado. Verifica tu token.");
  });

  it.each([
    ["auth", 401, "Token inválido ou expirado. Verifique seu token.", "Invalid or expired token. Check your token."],
    ["forbidden", 403, "Acesso negado. Verifique as permissões do seu token.", "Access denied. Check your token's permissions."],
    ["invalid_response", 200, "Resposta inválida da API da Oanda", "Invalid response from the Oanda API"],
    ["network", 0, "Erro de CORS ou conectividade. O servidor backend pode estar offline.", "CORS or connectivity error. The backend server may be offline."],
    ["server", 503, "Erro na API da Oanda (503). Tente novamente.", "Oanda API error (503). Try again."],
    ["bad_request", 400, "Erro na API da Oanda (400). Tente novamente.", "Oanda API error (400). Try again."],
  ] as const)("%s (%i): pt text of PRODUCT.md §8 and English", (kind, status, pt, en) => {
    expect(messagePtFor(kind, status)).toBe(pt);
    expect(renderMsg(messageFor(kind, status), "pt")).toBe(pt);
    expect(renderMsg(messageFor(kind, status), "en")).toBe(en);
    expect(renderMsg(messageFor(kind, status), "es")).not.toBe(pt);
  });
});

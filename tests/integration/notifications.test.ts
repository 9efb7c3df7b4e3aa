/**
 * Notifications over real HTTP against the real server process and PostgreSQL (PRODUCT.md §7
 * Notifications): list with paging and type filter, unread count, read one (404 for another user's
 * id), read-all, delete all, the test notification, Portuguese 400s for bad queries; and the product
 * creating notifications itself for a trade opened and closed (instrument, side, P&L) and for the AI
 * turning manage-only when its licence lapses (reason), driven through a standalone OANDA simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, type AppServer } from "../setup/app-server";
import { createTradingEnv, tickUntil, type TradingEnv, tradeWithoutEdge } from "../setup/trading-env";

interface NotificationJson {
  _id: string;
  id: string;
  type: string;
  title: string;
  message: string;
  read: boolean;
  createdAt: string;
  metadata: Record<string, unknown>;
}
interface ListJson {
  notifications: NotificationJson[];
  unreadCount: number;
  page: number;
  limit: number;
  total: number;
}

let env: TradingEnv;
let app: AppServer;

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp({ WORKERS: "off" });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

let seq = 0;
/** Registers a user, marks the e-mail verified (verification is mandatory for login) and logs in. */
async function verifiedUser() {
  const email = `notif${Date.now()}${seq++}@teste.com`;
  const anon = apiClient(app.url);
  const reg = await anon<{ user: { id: string } }>("POST", "/api/auth/register", { firstName: "Ana", lastName: "Lima", email, password: "Senha123" });
  expect(reg.status).toBe(201);
  await env.db.sql`update users set email_verified_at = now() where email = ${email}`;
  const login = await anon<{ token: string; user: { id: string } }>("POST", "/api/auth/login", { email, password: "Senha123" });
  expect(login.status).toBe(200);
  return { call: apiClient(app.url, login.body.token), userId: login.body.user.id };
}

/** A verified user with a fresh simulator practice account connected through the API. */
async function verifiedUserWithBroker() {
  const u = await verifiedUser();
  const sim = await env.simCall<{ token: string; accounts: { id: string }[] }>("POST", "/sim/users", { environment: "practice" });
  const connected = await u.call("POST", "/api/oanda-auth/connect", { token: sim.token, environment: "practice", accountId: sim.accounts[0]!.id });
  expect(connected.status, JSON.stringify(connected.body)).toBe(200);
  return u;
}

/** Inserts `n` notifications of a type with increasing creation times (oldest first). */
async function seed(userId: string, type: string, n: number, startMinutesAgo: number, read = false) {
  for (let i = 0; i < n; i++)
    await env.db.sql`insert into notifications (user_id, type, title, message, read, metadata, created_at)
      values (${userId}, ${type}, ${`${type} ${i}`}, ${`mensagem ${type} ${i}`}, ${read}, ${env.db.sql.json({ instrument: "EUR_USD" })},
              now() - make_interval(mins => ${startMinutesAgo - i}))`;
}

describe("notifications API", () => {
  let a: Awaited<ReturnType<typeof verifiedUser>>;
  let b: Awaited<ReturnType<typeof verifiedUser>>;

  beforeAll(async () => {
    a = await verifiedUser();
    b = await verifiedUser();
    await seed(a.userId, "trading", 60, 500); // 60 unread trading, oldest
    await seed(a.userId, "limit", 3, 100, true); // 3 read limits
    await seed(a.userId, "error", 2, 10); // 2 newest unread errors
    await seed(b.userId, "success", 1, 5);
  });

  it("lists newest first, 50 a page by default, with unreadCount and total", async () => {
    const res = await a.call<ListJson>("GET", "/api/notifications");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 1, limit: 50, total: 65, unreadCount: 62 });
    expect(res.body.notifications).toHaveLength(50);
    const first = res.body.notifications[0]!;
    expect(first).toMatchObject({ type: "error", title: "error 1", read: false, metadata: { instrument: "EUR_USD" } });
    expect(first._id).toBe(first.id);
    expect(new Date(first.createdAt).toISOString()).toBe(first.createdAt);
    const times = res.body.notifications.map((n) => Date.parse(n.createdAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);

    const page2 = await a.call<ListJson>("GET", "/api/notifications?page=2");
    expect(page2.body.notifications).toHaveLength(15);
    expect(page2.body.notifications.at(-1)!.title).toBe("trading 0");
    const ids = new Set([...res.body.notifications, ...page2.body.notifications].map((n) => n.id));
    expect(ids.size).toBe(65);

    const small = await a.call<ListJson>("GET", "/api/notifications?limit=2&page=3");
    expect(small.body).toMatchObject({ page: 3, limit: 2, total: 65 });
    expect(small.body.notifications.map((n) => n.title)).toEqual(["limit 0", "trading 59"]);
  });

  it("filters by type; 'all' and an omitted type mean every type", async () => {
    const limits = await a.call<ListJson>("GET", "/api/notifications?type=limit");
    expect(limits.body.total).toBe(3);
    expect(limits.body.notifications.every((n) => n.type === "limit")).toBe(true);
    expect(limits.body.unreadCount).toBe(62); // unreadCount is the user's, not the filter's
    const all = await a.call<ListJson>("GET", "/api/notifications?type=all&limit=1");
    expect(all.body.total).toBe(65);
    const none = await a.call<ListJson>("GET", "/api/notifications?type=info");
    expect(none.body).toMatchObject({ total: 0, notifications: [] });
  });

  it("answers 400 in Portuguese for bad page, limit or type", async () => {
    const cases: [string, string][] = [
      ["page=0", "page deve ser um número inteiro maior ou igual a 1."],
      ["page=dois", "page deve ser um número inteiro maior ou igual a 1."],
      ["limit=0", "limit deve ser um número inteiro entre 1 e 100."],
      ["limit=101", "limit deve ser um número inteiro entre 1 e 100."],
      ["type=urgent", "type deve ser um de: success, warning, error, limit, trading, info."],
    ];
    for (const [qs, message] of cases) {
      const res = await a.call<{ message: string }>("GET", `/api/notifications?${qs}`);
      expect(res.status, qs).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });

  it("needs a session", async () => {
    const res = await apiClient(app.url)<{ message: string }>("GET", "/api/notifications/unread-count");
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Token inválido ou expirado");
  });

  it("counts unread, marks one read, and refuses another user's id or a malformed id with 404", async () => {
    const count = await a.call<{ count: number; unreadCount: number }>("GET", "/api/notifications/unread-count");
    expect(count.body).toMatchObject({ count: 62, unreadCount: 62 });

    const list = await a.call<ListJson>("GET", "/api/notifications?type=error");
    const target = list.body.notifications[0]!;
    const read = await a.call<{ notification: NotificationJson; unreadCount: number }>("PUT", `/api/notifications/${target.id}/read`);
    expect(read.status).toBe(200);
    expect(read.body.notification).toMatchObject({ id: target.id, read: true });
    expect(read.body.unreadCount).toBe(61);

    const bList = await b.call<ListJson>("GET", "/api/notifications");
    expect(bList.body.total).toBe(1);
    const bId = bList.body.notifications[0]!.id;
    const stolen = await a.call<{ message: string }>("PUT", `/api/notifications/${bId}/read`);
    expect(stolen.status).toBe(404);
    expect(stolen.body.message).toBe("Notificação não encontrada.");
    const [still] = await env.db.sql<{ read: boolean }[]>`select read from notifications where id = ${bId}`;
    expect(still!.read).toBe(false);

    const malformed = await a.call<{ message: string }>("PUT", "/api/notifications/nao-e-um-uuid/read");
    expect(malformed.status).toBe(404);
    const wrongMethod = await a.call("POST", `/api/notifications/${target.id}/read`);
    expect(wrongMethod.status).toBe(405);
  });

  it("marks all read for the user only", async () => {
    const res = await a.call<{ updated: number; unreadCount: number }>("PUT", "/api/notifications/read-all");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ updated: 61, unreadCount: 0 });
    expect((await a.call<{ count: number }>("GET", "/api/notifications/unread-count")).body.count).toBe(0);
    expect((await b.call<{ count: number }>("GET", "/api/notifications/unread-count")).body.count).toBe(1);
  });

  it("creates a test notification", async () => {
    const res = await a.call<{ notification: NotificationJson }>("POST", "/api/notifications/test");
    expect(res.status).toBe(201);
    expect(res.body.notification).toMatchObject({ type: "info", title: "Notificação de teste", read: false });
    const list = await a.call<ListJson>("GET", "/api/notifications?limit=1");
    expect(list.body.notifications[0]!.id).toBe(res.body.notification.id);
    expect(list.body.unreadCount).toBe(1);
  });

  it("deletes all of the user's notifications and nobody else's", async () => {
    const res = await a.call<{ deleted: number }>("DELETE", "/api/notifications");
    expect(res.status).toBe(200);
    expect(res.body.deleted).toBe(66);
    expect((await a.call<ListJson>("GET", "/api/notifications")).body).toMatchObject({ total: 0, unreadCount: 0, notifications: [] });
    expect((await b.call<ListJson>("GET", "/api/notifications")).body.total).toBe(1);
  });
});

describe("notifications created by the product", () => {
  it("notifies a trade opened and closed (instrument, side, P&L) and the AI turned manage-only (reason)", async () => {
    const u = await verifiedUserWithBroker();
    await tradeWithoutEdge(u.call); // the AI trades despite no proven edge (the edge gate's override, issue 21)
    const titles = async () =>
      (await env.db.sql<{ title: string }[]>`select title from notifications where user_id = ${u.userId}`).map((r) => r.title);

    // Connecting the account notifies too.
    expect(await titles()).toContain("Conta Oanda conectada");

    const start = await u.call<{ success: boolean }>("POST", "/api/trades/ai/loop/start", { intervalSec: 60 });
    expect(start.body.success).toBe(true);

    expect(await tickUntil(env, u.call, async () => (await titles()).includes("Trade aberto"))).toBe(true);
    const closedTitles = ["Trade fechado com lucro", "Trade fechado com prejuízo", "Trade fechado no zero a zero"];
    expect(
      await tickUntil(env, u.call, async () => (await titles()).some((t) => closedTitles.includes(t)), { advanceSeconds: 3600 }),
    ).toBe(true);

    const list = await u.call<ListJson>("GET", "/api/notifications?type=trading");
    const opened = list.body.notifications.find((n) => n.title === "Trade aberto")!;
    const [trade] = await env.db.sql<{ instrument: string; side: string; broker_trade_id: string }[]>`
      select instrument, side, broker_trade_id from trades where user_id = ${u.userId} and broker_trade_id = ${String(opened.metadata.tradeId)}`;
    expect(trade).toBeTruthy();
    expect(opened.metadata).toMatchObject({ instrument: trade!.instrument, side: trade!.side });
    expect(opened.message).toContain(trade!.instrument.replace("_", "/"));
    expect(opened.message).toMatch(trade!.side === "buy" ? /^Compra / : /^Venda /);

    const [closedTrade] = await env.db.sql<{ instrument: string; side: string; realized_pl: string; result: string; broker_trade_id: string }[]>`
      select instrument, side, realized_pl, result, broker_trade_id from trades where user_id = ${u.userId} and status = 'closed' order by close_time limit 1`;
    const all = await u.call<ListJson>("GET", "/api/notifications?limit=100");
    const closed = all.body.notifications.find((n) => closedTitles.includes(n.title) && n.metadata.tradeId === closedTrade!.broker_trade_id)!;
    expect(closed.type).toBe(closedTrade!.result === "LOSS" ? "warning" : "success");
    expect(closed.metadata).toMatchObject({ instrument: closedTrade!.instrument, result: closedTrade!.result });
    expect(Number(closed.metadata.pnl)).toBeCloseTo(Number(closedTrade!.realized_pl), 6);
    // The P&L in the reader's language (issue 22 item 9): Portuguese decimal comma and grouping, signed.
    const pl = Number(Number(closedTrade!.realized_pl).toFixed(2));
    const plPt = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(pl);
    expect(closed.message).toContain(`P&L ${pl > 0 ? "+" : ""}${plPt} USD`);
    expect(closed.message).toContain(closedTrade!.instrument.replace("_", "/"));

    // The licence runs out while the AI is on: the next tick puts it in manage-only (issue 9) and says why.
    await env.db.sql`update licenses set end_date = now() - interval '1 minute' where user_id = ${u.userId}`;
    await u.call("POST", "/api/trades/ai/loop/run-once");
    const manageOnly = (await u.call<ListJson>("GET", "/api/notifications?type=warning")).body.notifications.filter((n) => n.title === "IA em modo somente gestão");
    expect(manageOnly).toHaveLength(1);
    expect(manageOnly[0]!.message).toMatch(/^Sua licença expirou: a IA não abre novas operações\./);
    expect(manageOnly[0]!.metadata).toMatchObject({ mode: "manage_only", reason: "licence" });
    const status = await u.call<{ isActive: boolean; manageOnly: boolean }>("GET", "/api/trades/ai/loop/status");
    expect(status.body).toMatchObject({ isActive: true, manageOnly: true });
  }, 240_000);
});

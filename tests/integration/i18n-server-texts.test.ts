/**
 * Server-made texts in the reader's language (ADR 0007), over real HTTP against the real server
 * process and PostgreSQL: notifications (stored with their Portuguese text and their message) read
 * in each user's preferences.language and follow a later language change; the AI loop's API errors,
 * skip reasons and status texts are in the caller's language; a Portuguese user gets the exact
 * Portuguese texts. The language is saved the way the product saves it: the /settings form.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isMsg, type Msg } from "../../core/i18n/message";
import { translateMsg } from "../../app/i18n";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, tickUntil, userWithBroker, type TradingEnv, tradeWithoutEdge } from "../setup/trading-env";

interface NotificationJson {
  id: string;
  type: string;
  title: string;
  message: string;
  metadata: Record<string, unknown>;
}
interface ListJson {
  notifications: NotificationJson[];
  total: number;
}
interface StatusJson {
  isActive: boolean;
  loopState: { lastStopReason: string | null; lastStopReasonText: string | null; lastTickError: string | null; lastTickErrorMsg: Msg | null };
  lastDecisions: { reason: string; reasonMsg: Msg | null }[];
}
type User = Awaited<ReturnType<typeof userWithBroker>>;

let env: TradingEnv;
let app: AppServer;
let pt: User;
let en: User;

/**
 * Saves a language through the /settings page form (the product's only way to save preferences),
 * re-posting the user's current settings unchanged.
 */
async function setLanguage(u: User, language: "pt" | "en" | "es") {
  const { body } = await u.call<{ settings: Record<string, unknown> }>("GET", "/api/settings");
  const form = new URLSearchParams({ intent: "save", "preferences.language": language, "preferences.timezone": "America/Sao_Paulo" });
  const put = (prefix: string, value: unknown) => {
    if (value === null || value === undefined) return;
    if (typeof value === "boolean") {
      if (value) form.set(prefix, "on");
    } else if (Array.isArray(value)) form.set(prefix, value.join(", "));
    else if (typeof value === "object") for (const [k, v] of Object.entries(value)) put(`${prefix}.${k}`, v);
    else form.set(prefix, String(value));
  };
  for (const [k, v] of Object.entries(body.settings)) put(k, v);
  const res = await fetch(app.url + "/settings", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Bearer ${u.token}` },
    body: form,
    redirect: "manual",
  });
  expect(res.status, await res.text()).toBe(200);
  const [row] = await env.db.sql<{ preferences: { language: string } }[]>`select preferences from users where id = ${u.userId}`;
  expect(row!.preferences.language).toBe(language);
}

/** The user's notifications (newest first) through the API. */
async function notifications(u: User, qs = "limit=100") {
  const res = await u.call<ListJson>("GET", `/api/notifications?${qs}`);
  expect(res.status).toBe(200);
  return res.body.notifications;
}

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp({ WORKERS: "off" });
  pt = await userWithBroker(env, app, `pt${Date.now()}@teste.com`);
  en = await userWithBroker(env, app, `en${Date.now()}@teste.com`);
  // The AI trades these pairs despite no proven edge (the user's override of the edge gate, issue 21).
  for (const u of [pt, en]) await tradeWithoutEdge(u.call);
  await setLanguage(en, "en");
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

describe("notifications in the reader's language", () => {
  it("the test notification: exact Portuguese for a pt user, English for an en user, both stored in Portuguese with the message", async () => {
    const a = await pt.call<{ message: string; notification: NotificationJson }>("POST", "/api/notifications/test");
    expect(a.status).toBe(201);
    expect(a.body.message).toBe("Notificação de teste enviada.");
    expect(a.body.notification).toMatchObject({ title: "Notificação de teste", message: "Se você está vendo esta mensagem, as notificações estão funcionando." });

    const b = await en.call<{ message: string; notification: NotificationJson }>("POST", "/api/notifications/test");
    expect(b.status).toBe(201);
    expect(b.body.message).toBe("Test notification sent.");
    expect(b.body.notification).toMatchObject({ type: "info", title: "Test notification", message: "If you can see this message, notifications are working." });
    expect((await notifications(en))[0]).toMatchObject({ id: b.body.notification.id, title: "Test notification" });

    const [row] = await env.db.sql<{ title: string; message: string; title_msg: Msg; message_msg: Msg }[]>`
      select title, message, title_msg, message_msg from notifications where id = ${b.body.notification.id}`;
    expect(row).toMatchObject({
      title: "Notificação de teste",
      message: "Se você está vendo esta mensagem, as notificações estão funcionando.",
      title_msg: { key: "notices:test.title" },
      message_msg: { key: "notices:test.message" },
    });
  });

  it("API messages and errors of the notification routes follow the language", async () => {
    const bad = await en.call<{ message: string }>("GET", "/api/notifications?limit=101");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("limit must be an integer between 1 and 100.");
    const badPt = await pt.call<{ message: string }>("GET", "/api/notifications?limit=101");
    expect(badPt.body.message).toBe("limit deve ser um número inteiro entre 1 e 100.");
    const missing = await en.call<{ message: string }>("PUT", "/api/notifications/00000000-0000-4000-8000-000000000000/read");
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("Notification not found.");
    const missingPt = await pt.call<{ message: string }>("PUT", "/api/notifications/00000000-0000-4000-8000-000000000000/read");
    expect(missingPt.body.message).toBe("Notificação não encontrada.");
    const readAll = await en.call<{ message: string }>("PUT", "/api/notifications/read-all");
    expect(readAll.body.message).toBe("All notifications have been marked as read.");
  });

  it("a row without a message (older rows) reads as its stored text in any language", async () => {
    await env.db.sql`insert into notifications (user_id, type, title, message) values (${en.userId}, 'info', 'Aviso antigo', 'Texto gravado antes')`;
    const [n] = await notifications(en, "limit=1");
    expect(n).toMatchObject({ title: "Aviso antigo", message: "Texto gravado antes" });
  });
});

describe("AI loop texts in the caller's language", () => {
  it("rejects a bad interval in the caller's language", async () => {
    const a = await en.call<{ message: string; field: string }>("POST", "/api/trades/ai/loop/start", { intervalSec: 2 });
    expect(a.status).toBe(400);
    expect(a.body).toMatchObject({ message: "intervalSec must be between 5 and 3600 seconds.", field: "intervalSec" });
    const b = await pt.call<{ message: string }>("POST", "/api/trades/ai/loop/start", { intervalSec: 2 });
    expect(b.body.message).toBe("intervalSec deve estar entre 5 e 3600 segundos.");
  });

  it("opens a trade: the notification and the AI's decisions read in the user's language, stored in Portuguese", async () => {
    const start = await en.call<{ success: boolean; message: string }>("POST", "/api/trades/ai/loop/start", { intervalSec: 60 });
    expect(start.body).toMatchObject({ success: true, message: "AI turned on" });
    const once = await en.call<{ success: boolean; message: string }>("POST", "/api/trades/ai/loop/run-once");
    expect(once.body).toMatchObject({ success: true, message: "AI cycle completed." });

    const opened = async () => (await env.db.sql`select 1 from notifications where user_id = ${en.userId} and title = 'Trade aberto'`).length > 0;
    expect(await tickUntil(env, en.call, opened)).toBe(true);
    const n = (await notifications(en, "type=trading")).find((x) => x.title === "Trade opened")!;
    expect(n).toBeTruthy();
    const side = n.metadata.side === "buy" ? "Buy" : "Sell";
    expect(n.message).toMatch(new RegExp(`^${side} ${String(n.metadata.instrument).replace("_", "/")} · \\d+\\.\\d{2} lot\\(s\\) at `));
    // The reader finds it by the words they see (the stored text is Portuguese), side included.
    expect((await notifications(en, "q=trade%20OPENED")).map((x) => x.id)).toContain(n.id);
    expect((await notifications(en, `q=${side}`)).map((x) => x.id)).toContain(n.id);
    expect((await notifications(en, "q=no-such-words")).map((x) => x.id)).not.toContain(n.id);
    const [row] = await env.db.sql<{ message: string }[]>`select message from notifications where id = ${n.id}`;
    expect(row!.message).toMatch(n.metadata.side === "buy" ? /^Compra .* lote\(s\) a / : /^Venda .* lote\(s\) a /);

    // Stored decisions: every reason is a message that renders to the stored Portuguese text.
    const rows = await env.db.sql<{ reason: string; reason_msg: unknown }[]>`select reason, reason_msg from decisions where user_id = ${en.userId}`;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(isMsg(r.reason_msg)).toBe(true);
      expect(translateMsg(r.reason_msg as Msg, "pt")).toBe(r.reason);
    }
    // The status API renders each decision's reason in English.
    const status = await en.call<StatusJson>("GET", "/api/trades/ai/loop/status");
    expect(status.body.lastDecisions.length).toBeGreaterThan(0);
    for (const d of status.body.lastDecisions) {
      expect(isMsg(d.reasonMsg)).toBe(true);
      expect(d.reason).toBe(translateMsg(d.reasonMsg!, "en"));
      expect(d.reason).not.toBe(translateMsg(d.reasonMsg!, "pt"));
    }

    // The trade keeps its decision's reason as a message: the dashboard card and the history render it in English.
    const [trade] = await env.db.sql<{ ai_reason: string; ai_reason_msg: Msg }[]>`
      select ai_reason, ai_reason_msg from trades where user_id = ${en.userId} and decision_id is not null limit 1`;
    expect(trade).toBeTruthy();
    expect(translateMsg(trade!.ai_reason_msg, "pt")).toBe(trade!.ai_reason);
    const english = translateMsg(trade!.ai_reason_msg, "en");
    const escaped = english.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
    const dash = await fetch(`${app.url}/dashboard`, { headers: { authorization: `Bearer ${en.token}` } });
    expect(dash.status).toBe(200);
    expect(await dash.text()).toContain(`data-testid="open-trade-reason">${escaped}<`);
    const open = await en.call<{ trades?: { aiReason: string; aiReasonMsg: Msg | null }[] }>("GET", "/api/trades/account/open");
    expect(JSON.stringify(open.body)).toContain(JSON.stringify(trade!.ai_reason_msg));
  }, 240_000);

  it("a stored decision's messages (engine reason and risk gate) read in each user's language: status API and hero", async () => {
    for (const u of [pt, en])
      await env.db.sql`insert into decisions (user_id, decision_id, instrument, action, side, timeframe, reason, reason_msg, risk_code, risk_reason, payload)
        values (${u.userId}, 'msg-test', 'EUR_USD', 'open', 'buy', 'M15', 'Outro ciclo da IA já está em execução.', ${env.db.sql.json({ key: "bot:skip.busy" })},
          'test', 'Licença necessária', ${env.db.sql.json({ riskReasonMsg: { key: "bot:skip.licence" } })})`;
    const a = await pt.call<StatusJson>("GET", "/api/trades/ai/loop/status");
    expect(a.body.lastDecisions[0]).toMatchObject({ reason: "Outro ciclo da IA já está em execução. — Licença necessária" });
    const b = await en.call<StatusJson>("GET", "/api/trades/ai/loop/status");
    expect(b.body.lastDecisions[0]).toMatchObject({
      reason: "Another AI cycle is already running. — Licence required",
      reasonMsg: { key: "bot:decision.withRisk", params: { reason: { key: "bot:skip.busy" }, risk: { key: "bot:skip.licence" } } },
    });
    const hero = await fetch(`${app.url}/`, { headers: { authorization: `Bearer ${en.token}` } });
    expect(hero.status).toBe(200);
    // Issue 22: a refused opening reads "Refused", its refusal first, then the engine's reason.
    const heroHtml = await hero.text();
    expect(heroHtml).toMatch(/data-testid="decision-badge">Refused</);
    expect(heroHtml).toMatch(/data-testid="decision-refusal">Licence required<\/span><span[^>]*>Another AI cycle is already running\.</);
  });

  it("a broker failure and its recovery notify in the user's language; the stored text stays Portuguese", async () => {
    const [conn] = await env.db.sql<{ account_id: string }[]>`select account_id from broker_connections where user_id = ${en.userId}`;
    await env.db.sql`update broker_connections set account_id = ${"999-999-9999999-999"} where user_id = ${en.userId}`;
    const failed = await en.call<{ success: boolean; message: string }>("POST", "/api/trades/ai/loop/run-once");
    await env.db.sql`update broker_connections set account_id = ${conn!.account_id} where user_id = ${en.userId}`;
    expect(failed.body.success).toBe(false);
    const errors = await notifications(en, "type=error");
    const lost = errors.find((n) => n.title === "Connection to Oanda lost")!;
    expect(lost).toBeTruthy();
    // 403/401 from the broker also turns the AI off, with the broker's message.
    const stopped = errors.find((n) => n.title === "AI turned off");
    if (stopped) expect(stopped.message).toBe(lost.message);
    const [row] = await env.db.sql<{ title: string; message: string }[]>`select title, message from notifications where id = ${lost.id}`;
    expect(row!.title).toBe("Conexão com a Oanda perdida");
    // The broker's own message: in English when the error carries a message, else its Portuguese text.
    expect(lost.message.length).toBeGreaterThan(5);
    const [bot] = await env.db.sql<{ last_tick_error: string | null; last_tick_error_msg: Msg | null }[]>`
      select last_tick_error, last_tick_error_msg from bots where user_id = ${en.userId}`;
    expect(bot!.last_tick_error).toBe(row!.message);
    if (bot!.last_tick_error_msg) expect(translateMsg(bot!.last_tick_error_msg, "pt")).toBe(bot!.last_tick_error);
    const status = await en.call<StatusJson>("GET", "/api/trades/ai/loop/status");
    expect(status.body.loopState.lastTickError).toBe(lost.message);

    // Connection back (the loop may have been stopped by an auth/forbidden failure: start it again).
    await en.call("POST", "/api/trades/ai/loop/start", { intervalSec: 60 });
    const ok = await en.call<{ success: boolean }>("POST", "/api/trades/ai/loop/run-once");
    expect(ok.body.success).toBe(true);
    const restored = (await notifications(en, "type=success"))[0]!;
    expect(restored).toMatchObject({ title: "Connection restored", message: "The connection to Oanda has been restored." });
    expect((await en.call<StatusJson>("GET", "/api/trades/ai/loop/status")).body.loopState).toMatchObject({ lastTickError: null, lastTickErrorMsg: null });
  });

  it("an expired licence puts the running AI in manage-only: run-once, notification, status, 402 and the skip with the loop off in each user's language; exact Portuguese for pt", async () => {
    for (const u of [pt, en]) {
      await u.call("POST", "/api/trades/ai/loop/start", { intervalSec: 60 });
      await env.db.sql`update licenses set end_date = now() - interval '1 minute' where user_id = ${u.userId}`;
    }

    const oncePt = await pt.call<{ success: boolean; message: string; manageOnlyReason: string }>("POST", "/api/trades/ai/loop/run-once");
    expect(oncePt.body).toMatchObject({
      success: true,
      message: "Ciclo da IA executado.",
      decisions: [],
      manageOnly: "licence",
      manageOnlyReason: "Licença inválida ou expirada: a IA não abre novas operações; as abertas seguem com stop e alvo",
      manageOnlyReasonMsg: { key: "risk:licenceInvalid" },
    });
    const onceEn = await en.call<{ success: boolean; message: string; manageOnlyReason: string }>("POST", "/api/trades/ai/loop/run-once");
    expect(onceEn.body).toMatchObject({
      success: true,
      message: "AI cycle completed.",
      manageOnly: "licence",
      manageOnlyReason: "Invalid or expired licence: the AI opens no new trades; open trades keep their stop loss and take profit",
    });

    const notePt = (await notifications(pt, "type=warning"))[0]!;
    expect(notePt).toMatchObject({
      title: "IA em modo somente gestão",
      message: "Sua licença expirou: a IA não abre novas operações. As operações abertas seguem com stop loss e take profit e continuam sendo acompanhadas. Assine para voltar a operar.",
      metadata: { mode: "manage_only", reason: "licence" },
    });
    const noteEn = (await notifications(en, "type=warning"))[0]!;
    expect(noteEn).toMatchObject({
      title: "AI in manage-only mode",
      message: "Your licence has expired: the AI opens no new trades. Open trades keep their stop loss and take profit and are still being looked after. Subscribe to trade again.",
      metadata: { mode: "manage_only", reason: "licence" },
    });
    const [row] = await env.db.sql<{ title: string; message: string; message_msg: Msg }[]>`
      select title, message, message_msg from notifications where id = ${noteEn.id}`;
    expect(row).toMatchObject({ title: "IA em modo somente gestão", message: notePt.message, message_msg: { key: "notices:manageOnly.message" } });

    const statusPt = await pt.call<StatusJson & { manageOnly: boolean; manageOnlyReason: string }>("GET", "/api/trades/ai/loop/status");
    expect(statusPt.body).toMatchObject({ isActive: true, manageOnly: true, manageOnlyReason: oncePt.body.manageOnlyReason, loopState: { lastStopReasonText: null } });
    const statusEn = await en.call<StatusJson & { manageOnly: boolean; manageOnlyReason: string }>("GET", "/api/trades/ai/loop/status");
    expect(statusEn.body).toMatchObject({ isActive: true, manageOnly: true, manageOnlyReason: onceEn.body.manageOnlyReason });
    const hero = await fetch(`${app.url}/`, { headers: { authorization: `Bearer ${en.token}` } });
    const html = await hero.text();
    expect(html).toMatch(/data-testid="hero-title"[^>]*>Manage Only</);
    expect(html).toContain('data-testid="hero-message">Licence expired: the AI opens no new trades; open trades keep their stop and target.<');

    const startPt = await pt.call<{ message: string }>("POST", "/api/trades/ai/loop/start", { intervalSec: 60 });
    expect(startPt.status).toBe(402);
    expect(startPt.body.message).toBe("Licença necessária para ativar a IA.");
    const startEn = await en.call<{ message: string }>("POST", "/api/trades/ai/loop/start", { intervalSec: 60 });
    expect(startEn.status).toBe(402);
    expect(startEn.body.message).toBe("A licence is required to turn on the AI.");

    const stopEn = await en.call<{ message: string }>("POST", "/api/trades/ai/loop/stop");
    expect(stopEn.body.message).toBe("AI turned off");
    const stopPt = await pt.call<{ message: string }>("POST", "/api/trades/ai/loop/stop");
    expect(stopPt.body.message).toBe("IA desativada");

    // With the loop off, a run-once without a licence is refused as before.
    const skipPt = await pt.call<{ success: boolean; message: string }>("POST", "/api/trades/ai/loop/run-once");
    expect(skipPt.body).toEqual({ success: false, message: "Licença necessária" });
    const skipEn = await en.call<{ success: boolean; message: string }>("POST", "/api/trades/ai/loop/run-once");
    expect(skipEn.body).toEqual({ success: false, message: "Licence required" });
  });

  it("after a language change the same stored notifications read in the new language (API and page)", async () => {
    const before = await notifications(en);
    const stop = before.find((n) => n.title === "AI in manage-only mode")!;
    const test = before.find((n) => n.title === "Test notification")!;
    expect(stop && test).toBeTruthy();

    const manageOnlyEs = {
      title: "IA en modo solo gestión",
      message: "Tu licencia venció: la IA no abre nuevas operaciones. Las operaciones abiertas mantienen su stop loss y take profit y se siguen gestionando. Suscríbete para volver a operar.",
    };
    await setLanguage(en, "es");
    const es = await notifications(en);
    expect(es.find((n) => n.id === stop.id)).toMatchObject(manageOnlyEs);
    expect(es.find((n) => n.id === test.id)).toMatchObject({ title: "Notificación de prueba", message: "Si ves este mensaje, las notificaciones funcionan." });
    const page = await fetch(`${app.url}/notifications?type=warning`, { headers: { authorization: `Bearer ${en.token}` } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(manageOnlyEs.message);
    expect(html).toContain(manageOnlyEs.title);

    await setLanguage(en, "pt");
    const back = await notifications(en);
    expect(back.find((n) => n.id === stop.id)).toMatchObject({
      title: "IA em modo somente gestão",
      message: "Sua licença expirou: a IA não abre novas operações. As operações abertas seguem com stop loss e take profit e continuam sendo acompanhadas. Assine para voltar a operar.",
    });
    expect(back.find((n) => n.id === test.id)).toMatchObject({ title: "Notificação de teste", message: "Se você está vendo esta mensagem, as notificações estão funcionando." });
  });
});

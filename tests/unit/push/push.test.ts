/**
 * Web push, pure parts (issue 11, ADR 0016): the one-tap action token (signed, bound to user and
 * action, expiring, tamper-evident) and the payload (language-ready texts, deep link by topic, action
 * buttons only with tokens, under the push services' size limit), and the topic of each product notice.
 */
import { describe, expect, it } from "vitest";
import { msg } from "../../../core/i18n/message";
import { buildPushPayload, deepLinkOf, enabledTopics, isAllowedPushEndpoint, MAX_PAYLOAD_BYTES, payloadBytes, topicOf } from "../../../app/lib/push";
import { actionKey, ACTION_TOKEN_TTL_SEC, signActionToken, verifyActionToken } from "../../../app/services/notify/push/action-token";
import { retryAfterSeconds } from "../../../app/services/notify/push/push.server";

const USER = "0b6f3f1e-8a59-4a3c-9f0e-1d2c3b4a5f60";
const key = actionKey("segredo-de-sessao-de-teste-com-32-chars");
const now = Date.UTC(2026, 0, 14, 10, 0, 0);

describe("action token", () => {
  it("verifies for its user and action until it expires", () => {
    const token = signActionToken(key, USER, "pause", now);
    const ok = verifyActionToken(key, token, "pause", now + (ACTION_TOKEN_TTL_SEC - 1) * 1000);
    expect(ok.ok && ok.claims.sub).toBe(USER);
    expect(ok.ok && ok.claims.act).toBe("pause");
    expect(verifyActionToken(key, token, "pause", now + ACTION_TOKEN_TTL_SEC * 1000)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses another action than the one it was signed for", () => {
    const token = signActionToken(key, USER, "pause", now);
    expect(verifyActionToken(key, token, "close_all", now)).toEqual({ ok: false, reason: "wrongAction" });
  });

  it("refuses a token signed with another secret, or whose claims were changed", () => {
    const other = signActionToken(actionKey("outro-segredo-de-sessao-com-32-chars!"), USER, "pause", now);
    expect(verifyActionToken(key, other, "pause", now)).toEqual({ ok: false, reason: "forged" });
    const [claims, mac] = signActionToken(key, USER, "pause", now).split(".");
    const changed = JSON.parse(Buffer.from(claims!, "base64url").toString());
    changed.act = "close_all";
    const tampered = `${Buffer.from(JSON.stringify(changed)).toString("base64url")}.${mac}`;
    expect(verifyActionToken(key, tampered, "close_all", now)).toEqual({ ok: false, reason: "forged" });
    expect(verifyActionToken(key, "lixo", "pause", now)).toEqual({ ok: false, reason: "malformed" });
  });

  it("gives every token its own id (single use is per token)", () => {
    const a = verifyActionToken(key, signActionToken(key, USER, "pause", now), "pause", now);
    const b = verifyActionToken(key, signActionToken(key, USER, "pause", now), "pause", now);
    expect(a.ok && b.ok && a.claims.jti !== b.claims.jti).toBe(true);
  });
});

describe("payload", () => {
  const base = {
    notificationId: "7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910",
    type: "trading",
    topic: "trades" as const,
    title: "Trade aberto",
    body: "Compra EUR/USD · 0.10 lote(s) a 1.08500",
    actionLabels: { stop_entries: "Parar entradas", pause: "Pausar IA", close_all: "Fechar tudo" },
    texts: { done: "Feito", failed: "Falhou" },
    timestamp: now,
  };

  it("carries the texts, the deep link and one button per token", () => {
    const p = buildPushPayload({ ...base, tokens: { pause: "t1", close_all: "t2" } });
    expect(p).toMatchObject({ title: "Trade aberto", body: base.body, url: "/", tag: `n-${base.notificationId}`, icon: "/icons/icon-192.png" });
    expect(p.actions).toEqual([
      { action: "pause", title: "Pausar IA" },
      { action: "close_all", title: "Fechar tudo" },
    ]);
    expect(p.tokens).toEqual({ pause: "t1", close_all: "t2" });
    expect(buildPushPayload({ ...base, tokens: {} }).actions).toEqual([]);
  });

  it("stays under the size limit however long the message", () => {
    const p = buildPushPayload({ ...base, body: "ç".repeat(5000), tokens: { pause: "x".repeat(300), close_all: "y".repeat(300) } });
    expect(payloadBytes(p)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(p.body.endsWith("…")).toBe(true);
  });

  it("links trades and AI to the trading screen, the rest to the notification centre", () => {
    expect(deepLinkOf("trades")).toBe("/");
    expect(deepLinkOf("ai")).toBe("/");
    expect(deepLinkOf("risk")).toBe("/notifications");
    expect(deepLinkOf(null)).toBe("/notifications");
  });
});

describe("topics", () => {
  it("maps the product's notices to the settings topics", () => {
    expect(topicOf({ type: "trading", title_msg: msg("notices:tradeOpened.title"), metadata: {} })).toBe("trades");
    expect(topicOf({ type: "success", title_msg: msg("notices:tradeClosed.titleWin"), metadata: {} })).toBe("trades");
    expect(topicOf({ type: "info", title_msg: msg("notices:timeframeChanged.title"), metadata: {} })).toBe("ai");
    expect(topicOf({ type: "limit", title_msg: msg("notices:botStopped.title"), metadata: {} })).toBe("risk");
    expect(topicOf({ type: "warning", title_msg: msg("notices:manageOnly.title"), metadata: {} })).toBe("risk");
    expect(topicOf({ type: "error", title_msg: msg("notices:connectionLost.title"), metadata: {} })).toBe("system");
    expect(topicOf({ type: "info", title_msg: msg("notices:test.title"), metadata: { test: true } })).toBeNull();
  });

  it("has every topic on until the user switches some off", () => {
    expect(enabledTopics(undefined)).toEqual(["trades", "ai", "risk", "system"]);
    expect(enabledTopics(["system", "bogus", "trades"])).toEqual(["trades", "system"]);
    expect(enabledTopics([])).toEqual([]);
  });

  it("reads Retry-After as seconds or a date, bounded", () => {
    expect(retryAfterSeconds("30", now)).toBe(30);
    expect(retryAfterSeconds(new Date(now + 90_000).toUTCString(), now)).toBe(90);
    expect(retryAfterSeconds(undefined, now)).toBe(60);
    expect(retryAfterSeconds("999999", now)).toBe(3600);
  });
});

describe("isAllowedPushEndpoint", () => {
  it("accepts the browsers' push services and listed extra hosts, over https only", () => {
    expect(isAllowedPushEndpoint("https://fcm.googleapis.com/fcm/send/abc")).toBe(true);
    expect(isAllowedPushEndpoint("https://updates.push.services.mozilla.com/wpush/v2/x")).toBe(true);
    expect(isAllowedPushEndpoint("https://web.push.apple.com/Q")).toBe(true);
    expect(isAllowedPushEndpoint("https://wns2-by3p.notify.windows.com/w/?token=x")).toBe(true);
    expect(isAllowedPushEndpoint("https://fcm.googleapis.com:443/fcm/send/abc")).toBe(true);
    expect(isAllowedPushEndpoint("https://127.0.0.1:8443/p", ["127.0.0.1:8443"])).toBe(true);
    expect(isAllowedPushEndpoint("https://push.example.org/p", ["example.org"])).toBe(true);
  });
  it("refuses any port but the push service's own (issue 24): 443 for known and bare hosts, the listed one for host:port", () => {
    expect(isAllowedPushEndpoint("https://fcm.googleapis.com:8443/fcm/send/abc")).toBe(false);
    expect(isAllowedPushEndpoint("https://updates.push.services.mozilla.com:22/wpush/v2/x")).toBe(false);
    expect(isAllowedPushEndpoint("https://127.0.0.1:8443/p", ["127.0.0.1"])).toBe(false);
    expect(isAllowedPushEndpoint("https://127.0.0.1:8444/p", ["127.0.0.1:8443"])).toBe(false);
    expect(isAllowedPushEndpoint("https://127.0.0.1/p", ["127.0.0.1:8443"])).toBe(false);
    expect(isAllowedPushEndpoint("https://user:senha@fcm.googleapis.com/fcm/send/abc")).toBe(false);
  });
  it("refuses other hosts, look-alikes and plain http", () => {
    expect(isAllowedPushEndpoint("https://127.0.0.1:8443/p")).toBe(false);
    expect(isAllowedPushEndpoint("https://evilfcm.googleapis.com.attacker.net/x")).toBe(false);
    expect(isAllowedPushEndpoint("https://notfcm.googleapis.co/x")).toBe(false);
    expect(isAllowedPushEndpoint("http://fcm.googleapis.com/fcm/send/abc")).toBe(false);
    expect(isAllowedPushEndpoint("not a url")).toBe(false);
  });
});

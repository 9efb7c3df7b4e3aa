/* Forex IA service worker (issue 11, ADR 0016), served at /sw.js (app/routes/sw[.]js.ts).
 * - push: shows the notification of the payload built by app/lib/push.ts (title, body, icon, badge,
 *   tag, deep link in data.url, "Parar entradas"/"Pausar IA"/"Fechar tudo" buttons with their tokens);
 * - notificationclick: a button posts {token, action} to /api/push/action (works from the lock screen,
 *   no session) and shows the server's answer; a click elsewhere focuses an open tab of the app on
 *   the deep link, or opens one.
 * No fetch handler: the app is not cached offline (its pages carry personal data, Cache-Control no-store). */
/* global self, clients, fetch, URL */

self.addEventListener("install", () => {
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

function parsePayload(event) {
  if (!event.data) return null;
  try {
    return event.data.json();
  } catch {
    return { title: "Forex IA", body: event.data.text() };
  }
}

self.addEventListener("push", (event) => {
  const p = parsePayload(event) || { title: "Forex IA", body: "" };
  // Mildest first in the payload; with fewer buttons than actions the strongest ones are kept (issue 22).
  const max = (self.Notification && self.Notification.maxActions) || 2;
  const actions = Array.isArray(p.actions) ? p.actions.slice(-max) : [];
  event.waitUntil(
    self.registration.showNotification(p.title || "Forex IA", {
      body: p.body || "",
      icon: p.icon || "/icons/icon-192.png",
      badge: p.badge || "/icons/badge-72.png",
      tag: p.tag,
      renotify: !!p.tag,
      timestamp: p.timestamp || Date.now(),
      actions,
      data: { url: p.url || "/", tokens: p.tokens || {}, texts: p.texts || {}, notificationId: p.notificationId || null },
    }),
  );
});

/** Focuses a window of the app on `url`, or opens one. */
async function openUrl(url) {
  const target = new URL(url, self.location.origin).href;
  const windows = await clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const w of windows) {
    if (new URL(w.url).origin !== self.location.origin) continue;
    await w.focus();
    if (w.url !== target && "navigate" in w) await w.navigate(target);
    return;
  }
  await clients.openWindow(target);
}

/** Runs a one-tap action with its token and tells the result in a follow-up notification. */
async function runAction(action, data) {
  const token = data.tokens && data.tokens[action];
  const texts = data.texts || {};
  let message = texts.failed || "Não foi possível executar a ação.";
  let ok = false;
  if (token) {
    try {
      const res = await fetch("/api/push/action", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        credentials: "omit",
        body: JSON.stringify({ token, action }),
      });
      const body = await res.json().catch(() => ({}));
      ok = res.ok;
      if (typeof body.message === "string" && body.message) message = body.message;
    } catch {
      ok = false;
    }
  }
  // The server also sends a confirmation push; this one covers a failure (and shows at once).
  if (!ok)
    await self.registration.showNotification("Forex IA", { body: message, icon: "/icons/icon-192.png", badge: "/icons/badge-72.png", tag: `action-${action}`, data: { url: "/" } });
}

self.addEventListener("notificationclick", (event) => {
  const data = (event.notification && event.notification.data) || {};
  event.notification.close();
  if (event.action === "stop_entries" || event.action === "pause" || event.action === "close_all") {
    event.waitUntil(runAction(event.action, data));
    return;
  }
  event.waitUntil(openUrl(data.url || "/"));
});

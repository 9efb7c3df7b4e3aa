/**
 * Browser side of web push (PRODUCT.md §2 "ativadas automaticamente ao fazer login", §7 "Push", §8):
 * registers /sw.js, and when notifications are allowed subscribes with the server's VAPID key and
 * sends the subscription with the device's info. Asking for permission needs a user gesture
 * (browsers ignore prompts without one), so after login it only subscribes when permission is already
 * 'granted'; the settings card's "Ativar notificações" asks. Silent when unsupported or denied: the
 * state is returned, never thrown. Client only (every function checks it runs in a browser).
 */
import { useEffect } from "react";

/** Where the device stands. */
export type PushState = "unsupported" | "denied" | "default" | "subscribed" | "failed";

/** Whether this browser can do web push at all. */
export function pushSupported(): boolean {
  return typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** base64url → bytes (the applicationServerKey). */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a) return false;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

/** POSTs JSON with the session cookie; the answer's status, 0 on a network failure. */
async function post(path: string, body: unknown): Promise<number> {
  try {
    const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, credentials: "same-origin", body: JSON.stringify(body) });
    return res.status;
  } catch {
    return 0;
  }
}

/** §7: /api/push/subscribe, then the alias; on failure once more with the bare subscription. The last status (201 when stored). */
async function sendSubscription(sub: PushSubscription): Promise<number> {
  const subscription = sub.toJSON();
  let status = await post("/api/push/subscribe", { subscription, client: clientInfo() });
  if (status === 201 || status === 409) return status;
  status = await post("/api/notifications/subscribe", { subscription, client: clientInfo() });
  if (status === 201 || status === 409) return status;
  return post("/api/push/subscribe", subscription);
}

/** The VAPID public key: /api/push/public-key, then /api/notifications/public-key (§7); null when none. */
async function publicKey(): Promise<string | null> {
  for (const path of ["/api/push/public-key", "/api/notifications/public-key"]) {
    try {
      const res = await fetch(path, { credentials: "same-origin" });
      if (!res.ok) continue;
      const body = (await res.json()) as { key?: string; publicKey?: string };
      const key = body.key ?? body.publicKey;
      if (key) return key;
    } catch {
      // next
    }
  }
  return null;
}

/** What the device tells the server about itself (PRODUCT.md §3 Push subscription). */
function clientInfo() {
  return {
    userAgent: navigator.userAgent.slice(0, 500),
    language: navigator.language,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ?? navigator.platform,
    appVersion: "1",
  };
}

/**
 * Registers the service worker and, when allowed, subscribes this device.
 * @param ask request permission when it is still 'default' (call from a click handler only)
 */
export async function enablePush(ask = false): Promise<PushState> {
  if (!pushSupported()) return "unsupported";
  try {
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    let permission = Notification.permission;
    if (permission === "default" && ask) permission = await Notification.requestPermission();
    if (permission === "denied") return "denied";
    if (permission !== "granted") return "default";
    const key = await publicKey();
    if (!key) return "failed";
    const bytes = keyBytes(key);
    const ready = await navigator.serviceWorker.ready.catch(() => registration);
    let sub = await ready.pushManager.getSubscription();
    // Keys changed on the server (admin saved new ones): the old subscription can no longer be used.
    if (sub && !sameKey(sub.options.applicationServerKey, bytes)) {
      await sub.unsubscribe().catch(() => false);
      sub = null;
    }
    sub ??= await ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
    let status = await sendSubscription(sub);
    if (status === 409) {
      // This browser's endpoint still belongs to the account used here before (issue 24: an endpoint
      // never moves between accounts). Whoever holds the browser may replace it: a fresh endpoint,
      // and the old one answers 410 to the other account's next push, which forgets it.
      await sub.unsubscribe().catch(() => false);
      sub = await ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
      status = await sendSubscription(sub);
    }
    return status === 201 ? "subscribed" : "failed";
  } catch {
    return "failed";
  }
}

/** The device's state without prompting (for the settings card). */
export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  if (Notification.permission === "default") return "default";
  const reg = await navigator.serviceWorker.getRegistration("/").catch(() => undefined);
  const sub = await reg?.pushManager.getSubscription().catch(() => null);
  return sub ? "subscribed" : "default";
}

/**
 * After login (a signed-in, non-admin page): registers /sw.js and subscribes when permission is
 * already granted, once per signed-in user and page load. Silent on every failure (§8).
 */
export function usePushRegistration(userKey: string | null | undefined): void {
  useEffect(() => {
    if (!userKey || !pushSupported()) return;
    void enablePush(false);
  }, [userKey]);
}

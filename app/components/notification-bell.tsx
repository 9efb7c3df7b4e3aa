/**
 * Header bell (PRODUCT.md §2 Navigation and header, §9): links to /notifications, shows the unread
 * badge capped at '99+', and polls GET /api/notifications/unread-count every 30 s while the tab is
 * visible. Without JavaScript it is a plain link with the count rendered by the server.
 */
import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatUnreadBadge, NOTIFICATIONS_POLL_MS } from "~/lib/unread-badge";
import { BellIcon } from "./icons";

/** The notifications bell with its unread badge; `initialUnread` comes from the root loader. */
export function NotificationBell({ initialUnread }: { initialUnread: number }) {
  const { t } = useTranslation("notifications");
  const [count, setCount] = useState(initialUnread);

  // A fresh server value (navigation, revalidation after an action) wins over the last poll.
  useEffect(() => setCount(initialUnread), [initialUnread]);

  useEffect(() => {
    let cancelled = false;
    const poll = async () => {
      if (document.visibilityState !== "visible" || !navigator.onLine) return;
      try {
        const res = await fetch("/api/notifications/unread-count", { credentials: "include", headers: { Accept: "application/json" } });
        if (!res.ok) return; // a failed poll keeps the last known count (PRODUCT.md §8: only logged)
        const body = (await res.json()) as { count?: unknown };
        if (!cancelled && typeof body.count === "number") setCount(body.count);
      } catch {
        /* offline or server restarting: try again on the next tick */
      }
    };
    const id = window.setInterval(() => void poll(), NOTIFICATIONS_POLL_MS);
    const onVisible = () => {
      if (document.visibilityState === "visible") void poll();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      cancelled = true;
      window.clearInterval(id);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, []);

  const badge = formatUnreadBadge(count);
  return (
    <Link
      to="/notifications"
      prefetch="intent"
      data-testid="notification-bell"
      className="relative grid h-10 w-10 place-items-center rounded-xl text-slate-300 hover:bg-white/10 hover:text-white"
      aria-label={badge ? t("bellUnread", { count }) : t("bell")}
      title={t("bell")}
    >
      <BellIcon />
      {badge && (
        <span
          data-testid="notification-badge"
          aria-hidden="true"
          className="absolute -right-0.5 -top-0.5 min-w-5 rounded-full bg-rose-500 px-1 text-center text-[10px] font-bold leading-5 text-white"
        >
          {badge}
        </span>
      )}
    </Link>
  );
}

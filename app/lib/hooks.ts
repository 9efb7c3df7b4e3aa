/** Small client hooks shared by the screens: online state, polling with revalidation, transient messages. */
import { useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";

/** `navigator.onLine` kept in sync with the online/offline events (assumes online during SSR). */
export function useOnline(): boolean {
  const [online, setOnline] = useState(true);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return online;
}

/** Revalidates the page's loaders every `ms` while the tab is visible and online. */
export function usePolling(ms: number, enabled = true): void {
  const { revalidate, state } = useRevalidator();
  const busy = useRef(false);
  busy.current = state === "loading";
  useEffect(() => {
    if (!enabled) return;
    const id = window.setInterval(() => {
      if (document.visibilityState === "visible" && navigator.onLine && !busy.current) revalidate();
    }, ms);
    return () => window.clearInterval(id);
  }, [ms, enabled, revalidate]);
}

/** A message that clears itself after `ms` (error banners: 5000 ms, PRODUCT.md §9). */
export function useTransientMessage(ms = 5000): [string | null, (message: string | null) => void] {
  const [message, setMessage] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const show = useCallback(
    (m: string | null) => {
      window.clearTimeout(timer.current);
      setMessage(m);
      if (m) timer.current = window.setTimeout(() => setMessage(null), ms);
    },
    [ms],
  );
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return [message, show];
}

/** The current time, refreshed every `ms` on the client (for relative times). */
export function useNow(ms = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = window.setInterval(() => setNow(new Date()), ms);
    return () => window.clearInterval(id);
  }, [ms]);
  return now;
}

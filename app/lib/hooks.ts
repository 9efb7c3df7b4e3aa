/** Small client hooks shared by the screens: online state, polling, transient messages, display locale, breakpoints. */
import { useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { i18nFor, INTL_LOCALE, toLanguage } from "~/i18n";
import { formatDate, formatDateTime, formatMoney, formatNumber, formatPercent, formatTime, relativeTime } from "./format";

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

/** Root loader fields the display helpers need (see app/route-support/pages.server.ts chromeData). */
interface RootDisplayData {
  language?: string;
  timezone?: string;
  mobileUA?: boolean;
}

/** Locale (pt-BR, en-US, es-ES) and time zone of the logged-in user, with bound formatters (PRODUCT.md §9). */
export function useDisplay() {
  const data = useRouteLoaderData("root") as RootDisplayData | undefined;
  const { t } = useTranslation("common");
  const locale = INTL_LOCALE[toLanguage(data?.language)];
  const timeZone = data?.timezone || "America/Sao_Paulo";
  return useMemo(
    () => ({
      locale,
      timeZone,
      money: (value: unknown, currency?: string | null, opts: { signed?: boolean } = {}) => formatMoney(value, currency, { ...opts, locale }),
      percent: (value: number | null | undefined, decimals = 1) => formatPercent(value, decimals, locale),
      number: (value: number | null | undefined, decimals = 2) => formatNumber(value, decimals, locale),
      date: (when: string | Date | null | undefined) => formatDate(when, { locale, timeZone }),
      dateTime: (when: string | Date | null | undefined) => formatDateTime(when, { locale, timeZone }),
      time: (when: string | Date | null | undefined) => formatTime(when, { locale, timeZone }),
      relative: (when: string | number | Date | null | undefined, now: Date) => relativeTime(when, now, { justNow: t("time.justNow"), timeZone }),
    }),
    [locale, timeZone, t],
  );
}

/** App breakpoints (PRODUCT.md §9): mobile < 768 px, tablet 768–1023, desktop ≥ 1024. */
export type Breakpoint = "mobile" | "tablet" | "desktop";

/** Breakpoint from a viewport width. */
export function breakpointOf(width: number): Breakpoint {
  return width < 768 ? "mobile" : width < 1024 ? "tablet" : "desktop";
}

/**
 * The current breakpoint, kept in sync with resizes. Before hydration (server render) it guesses from
 * the user agent: a mobile user agent renders as mobile, anything else as desktop.
 */
export function useBreakpoint(): { breakpoint: Breakpoint; mobileUA: boolean } {
  const data = useRouteLoaderData("root") as RootDisplayData | undefined;
  const mobileUA = !!data?.mobileUA;
  const [breakpoint, setBreakpoint] = useState<Breakpoint>(mobileUA ? "mobile" : "desktop");
  useEffect(() => {
    const update = () => setBreakpoint(breakpointOf(window.innerWidth));
    update();
    window.addEventListener("resize", update);
    return () => window.removeEventListener("resize", update);
  }, []);
  return { breakpoint, mobileUA };
}

/** `value` while it lasts at most `ms` (PRODUCT.md §4: loading is forced to end after 10 s). */
export function useCappedFlag(value: boolean, ms = 10_000): boolean {
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    setExpired(false);
    if (!value) return;
    const id = window.setTimeout(() => setExpired(true), ms);
    return () => window.clearTimeout(id);
  }, [value, ms]);
  return value && !expired;
}

/** A translated page title for a route's `meta`, in the language the root loader chose. */
export function metaTitle(matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>, ns: string, key: string): { title: string }[] {
  const root = matches.find((m) => m?.id === "root")?.data as RootDisplayData | undefined;
  return [{ title: i18nFor(root?.language).t(key, { ns }) }];
}

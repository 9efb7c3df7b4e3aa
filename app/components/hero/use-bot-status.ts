/**
 * The hero's AI loop status (PRODUCT.md §4 hero, §9 polling): the loader's status, then GET
 * /api/trades/ai/loop/status every 5 s while the page is visible and the browser online. A failed read
 * shows 'Erro de conexão com o servidor' (a network failure) or the status error until a read succeeds;
 * an expired session is left to the next navigation.
 */
import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from "react";
import { useTranslation } from "react-i18next";
import { ApiCallError, apiFetch, errorMessage } from "~/lib/api";
import type { botStatus } from "~/services/trading/bot-status.server";

/** The loop status as the loader and GET /api/trades/ai/loop/status give it. */
export type BotStatus = Awaited<ReturnType<typeof botStatus>>;

/** Bot status polling interval, ms (PRODUCT.md §9). */
export const STATUS_POLL_MS = 5000;

/** What `useBotStatus` gives the page. */
export interface BotStatusState {
  bot: BotStatus;
  setBot: Dispatch<SetStateAction<BotStatus>>;
  /** The polling error shown on the connection banner (null while reads succeed). */
  pollError: string | null;
  /** Reads the status now (never throws). */
  readStatus: () => Promise<void>;
  /** True while 'Tentar Novamente' re-reads. */
  retrying: boolean;
  /** 'Tentar Novamente' on the connection banner. */
  retry: () => Promise<void>;
  /** False once the page is gone (late answers are dropped). */
  mounted: { readonly current: boolean };
}

/** The loop status, polled (see the module comment); a new loader status replaces it. */
export function useBotStatus(loaderBot: BotStatus): BotStatusState {
  const { t } = useTranslation("hero");
  const [bot, setBot] = useState<BotStatus>(loaderBot);
  const [pollError, setPollError] = useState<string | null>(null);
  const [retrying, setRetrying] = useState(false);
  const mounted = useRef(true);

  useEffect(() => setBot(loaderBot), [loaderBot]);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  const readStatus = useCallback(async () => {
    try {
      const status = await apiFetch<BotStatus>("/api/trades/ai/loop/status");
      if (!mounted.current) return;
      setBot((prev) => ({ ...prev, ...status }));
      setPollError(null);
    } catch (err) {
      if (!mounted.current || (err instanceof ApiCallError && err.code === "unauthorized")) return;
      const message = errorMessage(err, "");
      setPollError(/Connection error|fetch/i.test(message) ? t("common:errors.server") : t("errors.status"));
    }
  }, [t]);

  useEffect(() => {
    const id = window.setInterval(() => {
      if (document.visibilityState === "visible" && navigator.onLine) void readStatus();
    }, STATUS_POLL_MS);
    return () => window.clearInterval(id);
  }, [readStatus]);

  const retry = useCallback(async () => {
    setRetrying(true);
    try {
      await readStatus();
    } finally {
      if (mounted.current) setRetrying(false);
    }
  }, [readStatus]);

  return { bot, setBot, pollError, readStatus, retrying, retry, mounted };
}

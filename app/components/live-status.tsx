/** Unobtrusive state of a live-price stream (PRODUCT.md §8 SSE messages): 'Ao vivo', or the error and 'Tentando reconectar...'. */
import clsx from "clsx";
import { useTranslation } from "react-i18next";
import type { SseStatus } from "~/lib/use-event-source";

/** Nothing while idle or connecting; a green dot when live; the §8 messages while the stream is down. */
export function LiveStatus({ status, className }: { status: SseStatus; className?: string }) {
  const { t } = useTranslation("live");
  if (status === "idle" || status === "connecting") return null;
  const up = status === "open";
  return (
    <p role="status" aria-live="polite" data-testid="live-status" data-status={status} className={clsx("inline-flex items-center gap-1.5 text-xs", up ? "text-emerald-300" : "text-amber-300", className)}>
      <span aria-hidden="true" className={clsx("h-2 w-2 rounded-full", up ? "bg-emerald-400" : "bg-amber-400")} />
      {up ? t("live") : `${status === "closed" ? t("sseClosed") : t("sseError")} · ${t("reconnecting")}`}
    </p>
  );
}

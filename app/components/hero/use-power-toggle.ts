/**
 * The power button's press with JavaScript (PRODUCT.md §4 hero gating, §9 timings; issues 12 and 21):
 * offline does nothing, no licence goes to /billing, no broker opens the wizard; paused starts the AI
 * (POST /api/trades/ai/loop/start) and active or manage-only stops it (…/stop). A start first asks
 * "Reativar a IA?" while a max-drawdown stop waits for the re-arm, else the pre-flight confirmation
 * when the check has warnings. The spinner shows at least 600 ms and at most 10 s; a failure shows its
 * message for 5 s and the status is re-read a second later.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { preflightNeedsConfirmation, type PreflightView } from "~/components/preflight-card";
import { apiFetch, errorMessage } from "~/lib/api";
import { useCappedFlag, useTransientMessage } from "~/lib/hooks";
import type { HeroView } from "~/lib/trading";
import type { BotStatusState } from "./use-bot-status";

/** AI loop interval the hero starts the loop with, seconds (PRODUCT.md §9). */
export const LOOP_INTERVAL_SEC = 60;
/** Toggle animation, ms (PRODUCT.md §4, §9). */
export const TOGGLE_ANIMATION_MS = 600;
/** Re-read of the status after a failed toggle, ms. */
const REREAD_AFTER_FAILURE_MS = 1000;
/** How long a toggle error stays, ms. */
const ERROR_VISIBLE_MS = 5000;
/** The loading state is forced to end after this long, ms (PRODUCT.md §4). */
const LOADING_CAP_MS = 10_000;

/** What the power panel needs of the press. */
export interface PowerToggle {
  busy: boolean;
  /** The last failure's message (for 5 s). */
  error: string | null;
  /** The pre-flight confirmation is open. */
  confirming: boolean;
  /** "Reativar a IA?" is open. */
  rearming: boolean;
  /** Presses the button; `confirmed`: the pre-flight confirmation was accepted; `rearmConfirmed`: the re-arm was. */
  toggle: (confirmed?: boolean, rearmConfirmed?: boolean) => Promise<void>;
  cancelConfirm: () => void;
  cancelRearm: () => void;
}

/** The press of the power button (see the module comment). */
export function usePowerToggle({
  view,
  status,
  preflight,
  revalidate,
  onNoLicence,
  onNoBroker,
}: {
  view: HeroView;
  status: BotStatusState;
  preflight: PreflightView | null;
  revalidate: () => void;
  onNoLicence: () => void;
  onNoBroker: () => void;
}): PowerToggle {
  const { t } = useTranslation("hero");
  const [confirming, setConfirming] = useState(false);
  const [rearming, setRearming] = useState(false);
  const [busyRaw, setBusy] = useState(false);
  const busy = useCappedFlag(busyRaw, LOADING_CAP_MS);
  const [error, showError] = useTransientMessage(ERROR_VISIBLE_MS);

  async function toggle(confirmed = false, rearmConfirmed = false) {
    if (view.state === "offline") return;
    if (view.state === "no-licence") return onNoLicence();
    if (view.state === "no-broker") return onNoBroker();
    const starting = view.state === "paused";
    if (starting && status.bot.rearmRequired && !rearmConfirmed) return setRearming(true);
    if (starting && !confirmed && !rearmConfirmed && preflightNeedsConfirmation(preflight)) return setConfirming(true);
    setConfirming(false);
    setRearming(false);
    const fallback = starting ? t("errors.start") : t("errors.stop");
    setBusy(true);
    const started = Date.now();
    try {
      const res = await apiFetch<{ success?: boolean; message?: string }>(starting ? "/api/trades/ai/loop/start" : "/api/trades/ai/loop/stop", {
        method: "POST",
        body: starting ? { intervalSec: LOOP_INTERVAL_SEC, ...(rearmConfirmed ? { rearm: true } : {}) } : {},
      });
      if (res.success === false) throw new Error(res.message || fallback);
      status.setBot((prev) => ({ ...prev, isActive: starting }));
      await status.readStatus();
      revalidate();
    } catch (err) {
      showError(errorMessage(err, fallback, t));
      window.setTimeout(() => void status.readStatus(), REREAD_AFTER_FAILURE_MS);
    } finally {
      // Keep the toggle animation visible for at least 600 ms (PRODUCT.md §9).
      window.setTimeout(() => setBusy(false), Math.max(0, TOGGLE_ANIMATION_MS - (Date.now() - started)));
    }
  }

  return { busy, error, confirming, rearming, toggle, cancelConfirm: () => setConfirming(false), cancelRearm: () => setRearming(false) };
}

/**
 * "Parada de emergência" on the hero (issue 22): the AI's current level ('Somente gestão: novas
 * entradas paradas'…), one button per level worth pulling from there (app/lib/kill-switch.ts) and
 * "Retomar entradas". Each level asks first in a confirmation dialog. Works without JavaScript: a
 * level's button is a link to `?parada=<level>`, whose server render shows the dialog, and the
 * dialog's confirm is a <form method="post"> (intent=kill_switch, level, confirm=1) to the hero's
 * action — as the re-arm confirmation does. With JavaScript the dialog opens in place and the
 * confirm calls POST /api/trades/ai/kill-switch (resume: …/kill-switch/resume); `onDone` re-reads.
 */
import { Form, Link, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiFetch, errorMessage } from "~/lib/api";
import { isKillSwitchLevel, killSwitchOffers, type KillSwitchLevel, type KillSwitchState } from "~/lib/kill-switch";
import { Banner } from "./ui";

/** The confirmation's id: the no-JS link's fragment scrolls the browser to it. */
const CONFIRM_ID = "parada-confirmacao";

const LEVEL_STYLE: Record<KillSwitchLevel, string> = {
  stop_entries: "border-amber-400/40 text-amber-200 hover:bg-amber-400/10",
  pause: "border-orange-400/40 text-orange-200 hover:bg-orange-400/10",
  close_all: "border-rose-400/50 text-rose-200 hover:bg-rose-400/10",
};

/** The control (see module doc); `state` from killSwitchState, `onDone` after a level ran (JS only). */
export function KillSwitch({ state, onDone }: { state: KillSwitchState; onDone?: () => void }) {
  const { t } = useTranslation("kill-switch");
  const [params] = useSearchParams();
  const asked = params.get("parada");
  const [asking, setAsking] = useState<KillSwitchLevel | null>(isKillSwitchLevel(asked) ? asked : null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const offers = killSwitchOffers(state);
  const dialog = useRef<HTMLDivElement>(null);
  // The confirmation opens below the levels, often under the fold or the floating dock: bring it to the
  // middle of the screen and give it focus, so the question is seen and read first (issue 22 item 6).
  useEffect(() => {
    if (!asking || !dialog.current) return;
    dialog.current.scrollIntoView({ block: "center" });
    dialog.current.focus({ preventScroll: true });
  }, [asking]);

  async function run(path: string, body: Record<string, unknown>) {
    setBusy(true);
    setError(null);
    try {
      await apiFetch(path, { method: "POST", body });
      setAsking(null);
      onDone?.();
    } catch (err) {
      setError(errorMessage(err, t("errors.failed"), t));
    } finally {
      setBusy(false);
    }
  }

  const button = "inline-flex min-h-11 items-center justify-center rounded-xl border px-3 py-2 text-sm font-semibold";
  return (
    <section aria-labelledby="kill-switch-title" className="mt-6 w-full max-w-sm rounded-2xl border border-white/10 bg-white/[0.03] p-4 text-left" data-testid="kill-switch">
      <h3 id="kill-switch-title" className="text-sm font-bold text-slate-100">
        {t("title")}
      </h3>
      <p className="mt-1 text-sm text-slate-300" data-testid="kill-switch-current" data-state={state}>
        <span className="text-slate-400">{t("current.label")}: </span>
        {t(`current.${state}`)}
      </p>
      <div className="mt-3 grid gap-2">
        {offers.levels.map((level) => (
          <Link
            key={level}
            to={`?parada=${level}#${CONFIRM_ID}`}
            preventScrollReset
            replace
            onClick={(e) => {
              e.preventDefault();
              setError(null);
              setAsking(level);
            }}
            className={`${button} flex-col ${LEVEL_STYLE[level]}`}
            data-testid={`kill-switch-${level}`}
          >
            <span>{t(`levels.${level}`)}</span>
            <span className="text-xs font-normal opacity-80">{t(`hints.${level}`)}</span>
          </Link>
        ))}
        {offers.resume && (
          <Form
            method="post"
            onSubmit={(e) => {
              e.preventDefault();
              void run("/api/trades/ai/kill-switch/resume", {});
            }}
          >
            <input type="hidden" name="intent" value="resume_entries" />
            <button type="submit" disabled={busy} className={`${button} w-full border-emerald-400/40 text-emerald-200 hover:bg-emerald-400/10`} data-testid="kill-switch-resume">
              {t("resume")}
            </button>
          </Form>
        )}
      </div>
      {asking && offers.levels.includes(asking) && (
        <div
          ref={dialog}
          id={CONFIRM_ID}
          tabIndex={-1}
          role="alertdialog"
          aria-labelledby="kill-switch-confirm-title"
          aria-describedby="kill-switch-confirm-body"
          className="mt-3 scroll-mb-32 scroll-mt-24 focus:outline-none"
          data-testid="kill-switch-confirm"
          data-level={asking}
        >
          <Banner tone={asking === "close_all" ? "error" : "warning"}>
            <p id="kill-switch-confirm-title" className="text-base font-bold">
              {t(`confirm.${asking}.title`)}
            </p>
            <p id="kill-switch-confirm-body" className="mt-1 text-sm">
              {t(`confirm.${asking}.body`)}
            </p>
            <Form
              method="post"
              className="mt-3 flex flex-wrap gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                void run("/api/trades/ai/kill-switch", { level: asking, confirm: true });
              }}
            >
              <input type="hidden" name="intent" value="kill_switch" />
              <input type="hidden" name="level" value={asking} />
              <input type="hidden" name="confirm" value="1" />
              <button type="submit" disabled={busy} className="min-h-11 rounded-xl bg-rose-500 px-4 py-2 text-sm font-bold text-white hover:bg-rose-400 disabled:opacity-60" data-testid="kill-switch-confirm-yes">
                {t("confirm.yes")}
              </button>
              <Link
                to="/"
                replace
                onClick={(e) => {
                  e.preventDefault();
                  setAsking(null);
                }}
                className="inline-flex min-h-11 items-center rounded-xl border border-white/20 px-4 py-2 text-sm font-semibold text-slate-100 hover:bg-white/5"
                data-testid="kill-switch-confirm-cancel"
              >
                {t("confirm.cancel")}
              </Link>
            </Form>
          </Banner>
        </div>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-rose-300" data-testid="kill-switch-error">
          {error}
        </p>
      )}
    </section>
  );
}

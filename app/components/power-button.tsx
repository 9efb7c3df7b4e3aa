/** The big round on/off button of the hero screen, coloured by the hero state (PRODUCT.md §4). */
import clsx from "clsx";
import { useTranslation } from "react-i18next";
import type { HeroView } from "~/lib/trading";
import { PowerIcon } from "./icons";
import { Spinner } from "./ui";

const RING: Record<HeroView["tone"], string> = {
  grey: "from-slate-600 to-slate-800 shadow-slate-900/50 ring-slate-500/40 text-slate-200",
  amber: "from-amber-400 to-amber-600 shadow-amber-500/30 ring-amber-300/50 text-amber-950",
  orange: "from-orange-400 to-orange-600 shadow-orange-500/30 ring-orange-300/50 text-orange-950",
  red: "from-rose-500 to-rose-700 shadow-rose-500/30 ring-rose-300/40 text-white",
  green: "from-emerald-400 to-emerald-600 shadow-emerald-500/40 ring-emerald-300/60 text-emerald-950",
};

/**
 * Round power button; shows the state's label (ASSINAR, CONECTAR OANDA, ATIVAR IA, DESATIVAR IA).
 * With `submit` it is the submit button of the enclosing form (name/value posted: the hero's no-JS
 * path) and `onClick` is not used (the form's onSubmit handles the press when JS runs).
 */
export function PowerButton({
  view,
  busy,
  disabled,
  onClick,
  submit,
}: {
  view: HeroView;
  busy: boolean;
  disabled?: boolean;
  onClick?: () => void;
  submit?: { name: string; value: string };
}) {
  const { t } = useTranslation("hero");
  return (
    <div className="relative grid place-items-center">
      {view.state === "active" && <span aria-hidden="true" className="absolute h-56 w-56 animate-pulse-ring rounded-full bg-emerald-400/30 md:h-64 md:w-64" />}
      <button
        type={submit ? "submit" : "button"}
        {...(submit ? { name: submit.name, value: submit.value } : { onClick })}
        disabled={disabled || busy}
        aria-busy={busy}
        data-testid="power-button"
        data-state={view.state}
        data-tone={view.tone}
        className={clsx(
          "relative flex h-48 w-48 flex-col items-center justify-center gap-2 rounded-full bg-gradient-to-br shadow-2xl ring-8 transition duration-[600ms] hover:scale-[1.02] focus-visible:outline-4 focus-visible:outline-offset-4 focus-visible:outline-white/60 active:scale-95 disabled:cursor-not-allowed disabled:opacity-70 md:h-56 md:w-56",
          RING[view.tone],
        )}
      >
        {busy ? <Spinner className="h-10 w-10 border-4" /> : <PowerIcon size={56} strokeWidth={2.5} />}
        <span className="text-sm font-extrabold tracking-wider md:text-base">{t(view.buttonKey)}</span>
      </button>
    </div>
  );
}

/** Collapsible call to action to open a broker (OANDA) demo account, with 'Já tenho conta' (PRODUCT.md §2 Authentication page). */
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ChevronDownIcon, ExternalIcon } from "../icons";

/** Link to open a free OANDA demo account (new tab). */
export const OANDA_SIGNUP_URL = "https://www.oanda.com/br-pt/trading/contas/demo/";

/** The collapsible broker CTA; `onHaveAccount` runs when the user says they already have an account. */
export function BrokerCta({ onHaveAccount }: { onHaveAccount?: () => void }) {
  const { t } = useTranslation("auth");
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="rounded-2xl border border-sky-400/20 bg-sky-500/5">
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls={panelId}
        className="flex w-full items-center justify-between gap-3 px-4 py-3 text-left text-sm font-semibold text-sky-200"
      >
        <span>{t("broker.toggle")}</span>
        <ChevronDownIcon size={18} className={open ? "rotate-180 transition" : "transition"} />
      </button>
      {open && (
        <div id={panelId} className="space-y-3 px-4 pb-4 text-sm text-slate-300">
          <p>{t("broker.intro")}</p>
          <ul className="space-y-1 text-slate-300">
            <li>• {t("broker.b1")}</li>
            <li>• {t("broker.b2")}</li>
            <li>• {t("broker.b3")}</li>
          </ul>
          <div className="flex flex-wrap gap-2">
            <a
              href={OANDA_SIGNUP_URL}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-h-11 items-center gap-2 rounded-xl bg-sky-500 px-4 py-2 font-semibold text-slate-950 hover:bg-sky-400"
            >
              {t("broker.open")} <ExternalIcon size={16} />
              <span className="sr-only">{t("broker.newTab")}</span>
            </a>
            <button
              type="button"
              onClick={() => {
                setOpen(false);
                onHaveAccount?.();
              }}
              className="inline-flex min-h-11 items-center rounded-xl bg-white/10 px-4 py-2 font-semibold text-slate-100 hover:bg-white/15"
            >
              {t("broker.have")}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

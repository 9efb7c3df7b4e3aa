/**
 * The long-history source on the backtest form (issue 21): its radio option, the hint with each
 * pair's dates and the period limit, and — without JavaScript — a button that re-reads the page for
 * the chosen source (GET /backtest?source=…), since the pairs and date bounds shown follow the
 * source only with JavaScript. Shown only when the server has the history (offer.long).
 */
import { useTranslation } from "react-i18next";
import { formatInstrument } from "~/lib/format";
import { useDisplay } from "~/lib/hooks";
import { longMaxDays, type LongRange } from "~/lib/backtest-run";

const at = (d: string) => `${d}T12:00:00Z`;

/** The radio option "Histórico longo em H1 (de … a …)". */
export function LongSourceOption({ long, checked, onPick }: { long: LongRange; checked: boolean; onPick: () => void }) {
  const { t } = useTranslation("backtest");
  const display = useDisplay();
  return (
    <label className="flex min-h-10 items-center gap-2 text-sm text-slate-200">
      <input type="radio" name="source" value="long" checked={checked} onChange={onPick} className="h-4 w-4 accent-emerald-500" data-testid="source-long" />
      {t("form.sourceLong", { from: display.date(at(long.minDate)), to: display.date(at(long.maxDate)) })}
    </label>
  );
}

/** What the long history is (H1, bid + half spread), its period limit and each pair's dates. */
export function LongSourceHint({ long }: { long: LongRange }) {
  const { t } = useTranslation("backtest");
  const ranges = long.instruments.map((i) => `${formatInstrument(i)} ${long.ranges[i]!.minDate} → ${long.ranges[i]!.maxDate}`).join("; ");
  return (
    <p className="text-xs text-slate-500" data-testid="long-hint">
      {t("form.longHint", { days: long.maxDays, days2: longMaxDays(long.maxDays, 2), days3: longMaxDays(long.maxDays, 3), ranges })}
    </p>
  );
}

/** Without JavaScript only: submits the form as GET so the page comes back with the chosen source's pairs and dates. */
export function PickSourceButton() {
  const { t } = useTranslation("backtest");
  return (
    <noscript>
      <button type="submit" formMethod="get" formNoValidate className="mt-2 min-h-10 rounded-xl border border-white/15 px-3 text-sm text-emerald-300" data-testid="pick-source">
        {t("form.pickSource")}
      </button>
    </noscript>
  );
}

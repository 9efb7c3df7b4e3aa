/**
 * "Por que a IA entrou?" stop/target distance (issue 22 item 11): the planned distance (the decision's
 * planned entry → planned stop/target) and beside it the filled one (the fill price → the stop/target set
 * on the trade, app/services/trading/trade-detail.server.ts), each labelled 'planejado' / 'executado'; when both
 * are equal it says so briefly. Pips with one decimal in the reader's notation. `${testId}-pips` holds
 * the planned value alone ("12,5 pips"), `${testId}-filled` the filled one (or the "same" phrase).
 */
import { useTranslation } from "react-i18next";
import { useDisplay } from "~/lib/hooks";

/** Planned and filled distances in pips (decimal strings, null when unknown). */
export function PlannedFilledPips({ planned, filled, testId }: { planned: string | null; filled: string | null; testId: string }) {
  const { t } = useTranslation("display-currency");
  const fmt = useDisplay();
  const pips = (v: string) => t("distances.value", { pips: fmt.number(Number(v), 1) });
  if (!planned && !filled) return <span data-testid={`${testId}-pips`}>—</span>;
  const same = planned !== null && filled !== null && Number(planned) === Number(filled);
  return (
    <span className="inline-flex flex-wrap items-baseline justify-end gap-x-1.5">
      {planned ? (
        <>
          <span className="text-xs text-slate-400">{t("distances.planned")}</span>
          <span data-testid={`${testId}-pips`}>{pips(planned)}</span>
        </>
      ) : null}
      {planned && filled ? <span className="text-slate-500">·</span> : null}
      {same ? (
        <span className="text-xs text-slate-400" data-testid={`${testId}-filled`} data-same="true">
          {t("distances.same")}
        </span>
      ) : filled ? (
        <>
          <span className="text-xs text-slate-400">{t("distances.filled")}</span>
          <span data-testid={`${testId}-filled`} data-same="false">
            {pips(filled)}
          </span>
        </>
      ) : null}
    </span>
  );
}

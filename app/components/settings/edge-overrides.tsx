/**
 * /settings "Vantagem estatística por par" (issue 21): the user's pairs with the edge table's verdict
 * for the chosen style (app/services/trading/edge-overrides.server.ts `edgePairs`) and, for each pair without a
 * proven edge, an "Operar mesmo assim" switch (core/trading/edge-gate.ts lets the AI enter it then).
 *
 * Each switch is its own POST form (`intent=edge-override`, `instrument`, `enable`), so it works without
 * JavaScript. Turning a pair ON needs a confirmation after a warning with the pair's out-of-sample figures
 * (profit factor, annual return, worst year, max drawdown, years positive, random percentile, or "sem
 * dados de longo prazo" when untested): with JavaScript a modal <dialog> opens at once; without it the
 * action answers `confirm` and the page shows the same warning as a step with its own form
 * (`confirmed=1`; its Cancelar posts `cancel=1`, which saves nothing). Turning OFF saves at once.
 */
import { Form, useNavigation } from "@remix-run/react";
import clsx from "clsx";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { EdgeFigures, EdgeVerdict } from "../../../core/research/edge-table";
import { Badge, Banner, Button, Card } from "~/components/ui";
import { formatInstrument } from "~/lib/format";
import { useDisplay } from "~/lib/hooks";

/** One pair as the loader gives it. */
export interface EdgePair {
  instrument: string;
  verdict: EdgeVerdict;
  figures: EdgeFigures | null;
  override: boolean;
}

/** The form field that marks this section's posts (the settings action dispatches on it). */
export const EDGE_OVERRIDE_INTENT = "edge-override";

const VERDICT_TONE = { edge: "green", no_edge: "amber", untested: "grey" } as const;

/** The pair's out-of-sample figures as a definition list, or "sem dados de longo prazo" when untested. */
export function EdgeFiguresList({ figures }: { figures: EdgeFigures | null }) {
  const { t } = useTranslation("edge-override");
  const { number, percent } = useDisplay();
  if (!figures) return <p className="text-sm text-slate-300" data-testid="edge-no-data">{t("figures.noData")}</p>;
  const pct = (v: string) => percent(Number(v), 1);
  const rows: [string, string][] = [
    [t("figures.profitFactor"), figures.profitFactor === null ? "—" : number(Number(figures.profitFactor), 2)],
    [t("figures.annualReturn"), pct(figures.annualReturnPct)],
    [t("figures.worstYear"), figures.worstYear ? t("figures.worstYearValue", { year: figures.worstYear.year, value: pct(figures.worstYear.returnPct) }) : "—"],
    [t("figures.maxDrawdown"), pct(figures.maxDrawdownPct)],
    [t("figures.yearsPositive"), t("figures.yearsPositiveValue", { positive: figures.yearsPositive, years: figures.years })],
    [t("figures.randomPercentile"), figures.randomPercentile === null ? "—" : t("figures.randomPercentileValue", { value: number(figures.randomPercentile, 0) })],
  ];
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1.5 text-sm sm:grid-cols-2" data-testid="edge-figures">
      {rows.map(([label, value]) => (
        <div key={label} className="flex justify-between gap-3 border-b border-white/5 py-1">
          <dt className="text-slate-400">{label}</dt>
          <dd className="text-right font-semibold tabular-nums text-slate-100">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The warning and its confirmation form (inside the dialog, or as the no-JavaScript step). */
function Warning({ pair, style, titleId, onCancel }: { pair: EdgePair; style: string; titleId: string; onCancel?: () => void }) {
  const { t } = useTranslation("edge-override");
  const { t: ts } = useTranslation("settings");
  const name = formatInstrument(pair.instrument);
  const styleName = ts(`ai.style.${style}`);
  const submitting = useNavigation().formData?.get("confirmed") === "1";
  return (
    <div className="space-y-3">
      <h3 id={titleId} className="text-lg font-bold text-white">
        {t("warning.title", { pair: name })}
      </h3>
      <p className="text-sm text-slate-300">
        {pair.figures
          ? t("warning.body", { pair: name, style: styleName, from: pair.figures.firstYear, to: pair.figures.lastYear })
          : t("warning.untested", { pair: name, style: styleName })}
      </p>
      <EdgeFiguresList figures={pair.figures} />
      <p className="text-sm font-medium text-amber-200">{t("warning.risk")}</p>
      <Form method="post" className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end" preventScrollReset>
        <input type="hidden" name="intent" value={EDGE_OVERRIDE_INTENT} />
        <input type="hidden" name="instrument" value={pair.instrument} />
        <input type="hidden" name="enable" value="1" />
        <input type="hidden" name="confirmed" value="1" />
        {onCancel ? (
          <Button type="button" variant="secondary" onClick={onCancel} data-testid="edge-cancel">
            {t("warning.cancel")}
          </Button>
        ) : (
          <Button type="submit" name="cancel" value="1" variant="secondary" data-testid="edge-cancel">
            {t("warning.cancel")}
          </Button>
        )}
        <Button type="submit" variant="danger" loading={submitting} data-testid="edge-confirm">
          {t("warning.confirm")}
        </Button>
      </Form>
    </div>
  );
}

/**
 * The section. `confirm`: the pair whose warning the server asked to confirm (no-JavaScript step);
 * `message`: the last switch's outcome, in the user's language.
 */
export function EdgeOverridesSection({
  style,
  pairs,
  confirm,
  message,
}: {
  style: string;
  pairs: EdgePair[];
  confirm: string | null;
  message: { ok: boolean; text: string } | null;
}) {
  const { t } = useTranslation("edge-override");
  const { t: ts } = useTranslation("settings");
  const { number, percent } = useDisplay();
  const [pending, setPending] = useState<string | null>(null);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const navigation = useNavigation();
  const pendingPair = pairs.find((p) => p.instrument === pending);
  // Set once React runs in the browser: until then a switch posts its form (the no-JavaScript step).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const confirmPair = pending ? undefined : pairs.find((p) => p.instrument === confirm);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (pendingPair && dialog && !dialog.open) dialog.showModal();
    if (!pendingPair && dialog?.open) dialog.close();
  }, [pendingPair]);
  // The confirmation was sent: close the dialog once the save is back.
  useEffect(() => {
    if (navigation.state === "idle" && pendingPair?.override) setPending(null);
  }, [navigation.state, pendingPair?.override]);

  return (
    <Card title={t("title")} id="edge-overrides" data-testid="edge-section" data-hydrated={hydrated ? "true" : undefined}>
      <p className="mb-3 text-sm text-slate-400">{t("intro", { style: ts(`ai.style.${style}`) })}</p>
      {message && (
        <Banner tone={message.ok ? "success" : "error"} className="mb-3">
          <span data-testid="edge-message">{message.text}</span>
        </Banner>
      )}
      {confirmPair && (
        <section role="alertdialog" aria-labelledby="edge-step-title" className="mb-4 rounded-2xl border border-amber-400/30 bg-amber-500/5 p-4" data-testid="edge-warning">
          <Warning pair={confirmPair} style={style} titleId="edge-step-title" />
        </section>
      )}
      <ul className="divide-y divide-white/5">
        {pairs.map((p) => {
          const name = formatInstrument(p.instrument);
          return (
            <li key={p.instrument} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid={`edge-pair-${p.instrument}`}>
              <div className="min-w-0">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold text-white">{name}</span>
                  <Badge tone={VERDICT_TONE[p.verdict]} data-testid="edge-verdict">
                    {t(`verdict.${p.verdict}`)}
                  </Badge>
                </div>
                {p.figures && (
                  <p className="mt-1 text-xs text-slate-400">
                    {t("summary", {
                      profitFactor: p.figures.profitFactor === null ? "—" : number(Number(p.figures.profitFactor), 2),
                      annualReturn: percent(Number(p.figures.annualReturnPct), 1),
                      positive: p.figures.yearsPositive,
                      years: p.figures.years,
                    })}
                  </p>
                )}
              </div>
              {p.verdict === "edge" ? (
                <span className="text-sm text-emerald-300">{t("edgeTrades")}</span>
              ) : (
                <Form method="post" preventScrollReset className="shrink-0">
                  <input type="hidden" name="intent" value={EDGE_OVERRIDE_INTENT} />
                  <input type="hidden" name="instrument" value={p.instrument} />
                  <button
                    type="submit"
                    name="enable"
                    value={p.override ? "0" : "1"}
                    role="switch"
                    aria-checked={p.override}
                    aria-label={p.override ? t("toggleOn", { pair: name }) : t("toggleOff", { pair: name })}
                    onClick={(e) => {
                      if (p.override) return; // turning off needs no confirmation
                      e.preventDefault();
                      setPending(p.instrument);
                    }}
                    className="inline-flex min-h-11 items-center gap-3 rounded-xl px-2 py-1.5 text-sm font-medium text-slate-200 hover:bg-white/5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-300"
                    data-testid="edge-toggle"
                  >
                    <span>{t("toggle")}</span>
                    <span aria-hidden="true" className={clsx("relative inline-block h-6 w-11 rounded-full transition", p.override ? "bg-amber-500" : "bg-slate-600")}>
                      <span className={clsx("absolute top-0.5 h-5 w-5 rounded-full bg-white transition", p.override ? "left-[1.375rem]" : "left-0.5")} />
                    </span>
                  </button>
                </Form>
              )}
            </li>
          );
        })}
      </ul>
      <dialog
        ref={dialogRef}
        aria-labelledby="edge-dialog-title"
        onClose={() => setPending(null)}
        className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-3xl border border-white/10 bg-slate-900 p-5 text-slate-100 shadow-2xl backdrop:bg-black/70 sm:p-6"
        data-testid="edge-dialog"
      >
        {pendingPair && <Warning pair={pendingPair} style={style} titleId="edge-dialog-title" onCancel={() => dialogRef.current?.close()} />}
      </dialog>
    </Card>
  );
}

/**
 * The AI's report card (issue 21 "Report card before ATIVAR IA"): the chosen style's out-of-sample
 * walk-forward figures from the shipped edge table in plain words — annual return, worst year, max
 * drawdown, profit factor (gross profit / gross loss, ADR 0008), years positive, where it falls among
 * random entries, the test years — and a verdict sentence (edge / no edge / untested), then the user's
 * pairs with their own verdicts and a link to the full table (/ia/evidencias). Numbers in the reader's
 * locale (`useDisplay`). Shown on the hero, in /settings (following the style being chosen) and on /backtest.
 * Server-rendered: reads the same without JavaScript.
 */
import { Link } from "@remix-run/react";
import clsx from "clsx";
import { useTranslation } from "react-i18next";
import { formatInstrument } from "~/lib/format";
import { useDisplay } from "~/lib/hooks";
import { formatEdgeFigures, verdictSentenceKey, verdictTone, yearSpan } from "~/lib/report-card";
import type { ReportCardView } from "~/services/research/edge-table.server";
import { Badge, Card } from "../ui";

/** Where the full table lives (page route; the JSON is GET /api/research/edge-table). */
export const EVIDENCE_PATH = "/ia/evidencias";

const SENTENCE_COLOUR = { green: "text-emerald-200", amber: "text-amber-200", grey: "text-slate-300" } as const;

/** One figure: label, value (tabular), optional hint; wraps instead of truncating at 390 px. */
function Figure({ label, value, hint, testId, wide = false }: { label: string; value: string; hint?: string; testId: string; wide?: boolean }) {
  return (
    <div className={clsx("min-w-0 rounded-xl bg-white/[0.03] p-3 ring-1 ring-white/5", wide && "col-span-2 sm:col-span-1")}>
      <dt className="text-xs text-slate-400">{label}</dt>
      <dd className="mt-0.5 break-words text-sm font-semibold tabular-nums text-slate-100" data-testid={testId}>
        {value}
      </dd>
      {hint && <dd className="text-[11px] leading-tight text-slate-400">{hint}</dd>}
    </div>
  );
}

/** The report card of one style (`card`: app/services/research/edge-table.server.ts `reportCard`). */
export function ReportCard({ card, className }: { card: ReportCardView; className?: string }) {
  const { t } = useTranslation("research");
  const fmt = useDisplay();
  const tone = verdictTone(card.verdict);
  const f = card.figures ? formatEdgeFigures(card.figures, fmt.locale) : null;
  const span = card.figures ? yearSpan(card.figures.firstYear, card.figures.lastYear) : "—";
  const sentence = verdictSentenceKey(card.verdict, card.style);
  return (
    <Card
      title={t("card.title", { style: t(`style.${card.style}`) })}
      action={
        <Badge tone={tone} className="shrink-0 whitespace-nowrap" data-testid="report-badge">
          {t(`badge.${card.verdict}`)}
        </Badge>
      }
      className={className}
      data-testid="report-card"
      data-style={card.style}
      data-verdict={card.verdict}
    >
      <p className={clsx("text-sm font-medium leading-snug", SENTENCE_COLOUR[tone])} data-testid="report-verdict">
        {t(sentence, { span })}
      </p>

      {f && (
        <dl className="mt-3 grid grid-cols-2 gap-2 text-left sm:grid-cols-3" data-testid="report-figures">
          <Figure label={t("card.annualReturn")} value={f.annualReturn} testId="report-annual-return" />
          <Figure label={t("card.worstYear")} value={f.worstYear ? t("card.worstYearValue", { year: f.worstYear.year, value: f.worstYear.value }) : "—"} testId="report-worst-year" />
          <Figure label={t("card.maxDrawdown")} value={f.maxDrawdown} testId="report-max-drawdown" />
          <Figure label={t("card.profitFactor")} value={f.profitFactor} hint={t("card.profitFactorHint")} testId="report-profit-factor" />
          <Figure label={t("card.yearsPositive")} value={t("card.yearsPositiveValue", { n: f.yearsPositive, of: f.years })} testId="report-years-positive" wide />
          <Figure
            label={t("card.random")}
            value={f.randomPercentile === null ? t("card.randomNone") : t("card.randomValue", { pct: f.randomPercentile })}
            testId="report-random"
            wide
          />
        </dl>
      )}

      {(f || card.generatedAt || sentence !== "verdict.untestedNotRun") && (
        <p className="mt-3 text-xs text-slate-400">
          {f && (
            <>
              {t("card.testYears")}: <span data-testid="report-test-years">{f.testYears}</span> · {t("card.subtitle")}{" "}
            </>
          )}
          {/* The sentence already says the study has not run; no second line for it. */}
          <span data-testid="report-study">{card.generatedAt ? t("card.study", { date: fmt.date(card.generatedAt) }) : t("card.studyNotRun")}</span>
        </p>
      )}

      {card.pairs.length > 0 && (
        <div className="mt-3">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-400">{t("card.pairs")}</h3>
          <ul className="mt-1.5 grid grid-cols-2 gap-1.5 lg:grid-cols-3" data-testid="report-pairs">
            {card.pairs.map((p) => {
              const pf = p.figures ? formatEdgeFigures(p.figures, fmt.locale) : null;
              return (
                <li
                  key={p.instrument}
                  className="min-w-0 rounded-lg bg-white/[0.03] px-2.5 py-1.5 ring-1 ring-white/5"
                  data-testid="report-pair"
                  data-instrument={p.instrument}
                  data-verdict={p.verdict}
                >
                  <div className="flex flex-col items-start gap-0.5">
                    <span className="text-sm font-semibold text-slate-100">{formatInstrument(p.instrument)}</span>
                    <Badge tone={verdictTone(p.verdict)} className="whitespace-nowrap !px-1.5 !py-0 text-[11px]">
                      {t(`badge.${p.verdict}`)}
                    </Badge>
                  </div>
                  {pf && (
                    <p className="mt-0.5 text-[11px] tabular-nums text-slate-400" data-testid="report-pair-figures">
                      {t("card.pairFigures", { pf: pf.profitFactor, n: pf.yearsPositive, of: pf.years })}
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      )}

      <Link to={EVIDENCE_PATH} className="mt-3 inline-flex min-h-10 items-center text-sm font-semibold text-emerald-300 underline-offset-2 hover:underline" data-testid="report-full-table">
        {t("card.fullTable")} →
      </Link>
    </Card>
  );
}

/**
 * /ia/evidencias — the AI's evidence (issue 21): the whole shipped edge table (core/research/edge-table.json)
 * — every style's portfolio record and every pair × style row with all its out-of-sample figures — plus
 * when the study ran, the command that reproduces it, the decision rule in plain words and where the
 * documentation lives in the repository (docs/STRATEGY.md, docs/research/PREREGISTRATION.md; not served).
 * Logged-in users (as /settings); the report card links here; the same data as JSON at GET
 * /api/research/edge-table. Static server-rendered page: reads the same without JavaScript. Under 768 px
 * each table row becomes a small card with its labels (one DOM for both widths).
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import clsx from "clsx";
import { useTranslation } from "react-i18next";
import type { EdgeFigures, EdgeRow, EdgeVerdict } from "../../core/research/edge-table";
import { TRADING_STYLES, type TradingStyle } from "../../core/settings";
import { Badge, Card } from "~/components/ui";
import { formatInstrument } from "~/lib/format";
import { metaTitle, useDisplay } from "~/lib/hooks";
import { requireAppUser } from "~/route-support/pages.server";
import { formatEdgeFigures, NO_FIGURE, verdictSentenceKey, verdictTone, yearSpan } from "~/lib/report-card";
import { edgeTableView } from "~/services/research/edge-table.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "evidence", "meta");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAppUser(request);
  return { table: edgeTableView() };
}

/** Column keys of a figures row, in display order (labels: `evidence:col.<key>`). */
const COLUMNS = ["annualReturn", "worstYear", "maxDrawdown", "profitFactor", "expectancy", "yearsPositive", "random", "sharpe", "deflatedSharpe", "trades", "testYears"] as const;
type Column = (typeof COLUMNS)[number];

/** The display value of every column for a record (all "—" when untested). */
function cells(figures: EdgeFigures | null, locale: string, t: (k: string, o?: Record<string, unknown>) => string): Record<Column, string> {
  if (!figures) return Object.fromEntries(COLUMNS.map((c) => [c, NO_FIGURE])) as Record<Column, string>;
  const f = formatEdgeFigures(figures, locale);
  return {
    annualReturn: f.annualReturn,
    worstYear: f.worstYear ? `${f.worstYear.year}: ${f.worstYear.value}` : NO_FIGURE,
    maxDrawdown: f.maxDrawdown,
    profitFactor: f.profitFactor,
    expectancy: f.expectancyR,
    yearsPositive: `${f.yearsPositive}/${f.years}`,
    random: f.randomPercentile ?? t("research:card.randomNone"),
    sharpe: f.sharpe,
    deflatedSharpe: f.deflatedSharpe,
    trades: f.trades,
    testYears: f.testYears,
  };
}

/** One row: first cell the pair (or the portfolio), then the verdict badge and every figure. */
function FiguresRow({ label, verdict, figures, testId, instrument, style }: { label: string; verdict: EdgeVerdict; figures: EdgeFigures | null; testId: string; instrument?: string; style: TradingStyle }) {
  const { t } = useTranslation("evidence");
  const fmt = useDisplay();
  const values = cells(figures, fmt.locale, t);
  return (
    <tr
      className="mb-2 block rounded-xl bg-white/[0.03] p-3 ring-1 ring-white/5 md:mb-0 md:table-row md:rounded-none md:bg-transparent md:p-0 md:ring-0 md:odd:bg-white/[0.02]"
      data-testid={testId}
      data-instrument={instrument}
      data-style={style}
      data-verdict={verdict}
    >
      <th scope="row" className="flex items-center justify-between gap-2 pb-1 text-left font-semibold text-slate-100 md:table-cell md:min-w-24 md:px-1.5 md:py-2">
        {label}
        <Badge tone={verdictTone(verdict)} className="shrink-0 whitespace-nowrap md:hidden">
          {t(`research:badge.${verdict}`)}
        </Badge>
      </th>
      <td className="hidden md:table-cell md:px-1.5 md:py-2" data-col="verdict">
        <Badge tone={verdictTone(verdict)} className="whitespace-nowrap">
          {t(`research:badge.${verdict}`)}
        </Badge>
      </td>
      {!figures && (
        <td className="block text-sm text-slate-400 md:hidden" data-testid="evidence-row-empty">
          {t("noFigures")}
        </td>
      )}
      {COLUMNS.map((c) => (
        <td
          key={c}
          data-col={c}
          data-label={t(`col.${c}`)}
          className={clsx(
            "justify-between gap-3 py-0.5 text-sm tabular-nums text-slate-200 before:text-slate-400 before:content-[attr(data-label)] md:table-cell md:whitespace-nowrap md:px-1.5 md:py-2 md:text-right md:before:content-none",
            // Under 768 px an untested row shows one line instead of eleven dashes.
            figures ? "flex" : "hidden",
          )}
        >
          {values[c]}
        </td>
      ))}
    </tr>
  );
}

/** The evidence page. */
export default function EvidencePage() {
  const { table } = useLoaderData<typeof loader>();
  const { t } = useTranslation("evidence");
  const fmt = useDisplay();
  const rowsOf = (style: TradingStyle): EdgeRow[] => table.rows.filter((r) => r.style === style);
  return (
    <main className="mx-auto max-w-6xl space-y-5 px-4 pb-8 pt-4 md:pt-8" data-testid="evidence">
      <div>
        <h1 className="text-2xl font-bold text-white">{t("title")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-300">{t("intro")}</p>
      </div>

      <div className="grid gap-5 lg:grid-cols-2">
        <Card>
          <p className="text-sm text-slate-200" data-testid="evidence-study">
            {table.studyDate ? t("studyDate", { date: fmt.dateTime(table.studyDate) }) : t("studyNotRun")}
          </p>
          <p className="mt-3 text-xs text-slate-400">{t("command")}</p>
          <code className="mt-1 block overflow-x-auto whitespace-pre-wrap break-words rounded-lg bg-slate-950/70 px-3 py-2 text-xs text-emerald-200 ring-1 ring-white/5" data-testid="evidence-command">
            {table.command}
          </code>
          <ul className="mt-3 space-y-1 text-sm text-slate-300">
            <li data-testid="evidence-default-family">{t("defaultFamily", { family: table.defaultFamily })}</li>
            <li data-testid="evidence-rule-passed">{t("rulePassed", { answer: table.rulePassed ? t("yes") : t("no") })}</li>
          </ul>
          <p className="mt-3 text-xs text-slate-400" data-testid="evidence-docs">
            {t("docs")}
          </p>
        </Card>
        <Card title={t("ruleTitle")} data-testid="evidence-rule">
          <p className="text-sm text-slate-300">{t("ruleIntro")}</p>
          <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-300">
            {(["rule1", "rule2", "rule3", "rule4", "rule5"] as const).map((k) => (
              <li key={k}>{t(k)}</li>
            ))}
          </ol>
          <p className="mt-2 text-sm text-slate-300">{t("rulePair")}</p>
        </Card>
      </div>

      {TRADING_STYLES.map((style) => {
        const summary = table.styles.find((s) => s.style === style);
        const verdict = summary?.verdict ?? "untested";
        const span = summary?.figures ? yearSpan(summary.figures.firstYear, summary.figures.lastYear) : NO_FIGURE;
        return (
          <Card
            key={style}
            title={t(`research:style.${style}`)}
            action={
              <Badge tone={verdictTone(verdict)} className="whitespace-nowrap">
                {t(`research:badge.${verdict}`)}
              </Badge>
            }
            data-testid="evidence-style"
            data-style={style}
            data-verdict={verdict}
          >
            <p className="text-sm text-slate-300" data-testid="evidence-style-verdict">
              {t(`research:${verdictSentenceKey(verdict, style)}`, { span })}{" "}
              <span className="text-slate-400">{t("family", { family: summary?.family ?? table.defaultFamily })}</span>
            </p>
            <div className="mt-3 md:overflow-x-auto">
              <table className="block w-full text-sm md:table">
                <thead className="hidden md:table-header-group">
                  <tr className="border-b border-white/10 text-xs text-slate-400">
                    <th scope="col" className="px-1.5 py-2 text-left font-medium">{t("col.pair")}</th>
                    <th scope="col" className="px-1.5 py-2 text-left font-medium">{t("col.verdict")}</th>
                    {COLUMNS.map((c) => (
                      <th key={c} scope="col" className="px-1.5 py-2 text-right font-medium">
                        {t(`col.${c}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="block md:table-row-group">
                  <FiguresRow label={t("styleSummary")} verdict={verdict} figures={summary?.figures ?? null} testId="evidence-summary" style={style} />
                  {rowsOf(style).map((r) => (
                    <FiguresRow key={r.instrument} label={formatInstrument(r.instrument)} verdict={r.verdict} figures={r.figures} testId="evidence-row" instrument={r.instrument} style={style} />
                  ))}
                </tbody>
              </table>
            </div>
          </Card>
        );
      })}

      <Link to="/" className="inline-flex min-h-10 items-center text-sm font-semibold text-emerald-300 hover:underline">
        ← {t("back")}
      </Link>
    </main>
  );
}

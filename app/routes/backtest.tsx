/**
 * /backtest (issue 12 "On screen: the user's own backtest"): the form of a new run (pairs, candle
 * source, period within what the source offers, initial balance) with the settings it will use,
 * the user's saved runs with their status, and a side-by-side comparison of two or more finished
 * runs (`?compare=<id>&compare=<id>`: statistics columns and overlaid equity curves). Everything
 * works without JavaScript (a POST form that redirects to the run's page; a GET form to compare).
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CompareChart, pairsLabel, SettingsSummary, StatsTable, StatusBadge } from "~/components/backtest/backtest-views";
import { Banner, Button, Card } from "~/components/ui";
import { toLanguage } from "~/i18n";
import { readForm } from "~/route-support/form.server";
import { formatInstrument } from "~/lib/format";
import { metaTitle, useDisplay } from "~/lib/hooks";
import { requireAppUser } from "~/route-support/pages.server";
import { assertSameOrigin } from "~/route-support/api.server";
import { createRun, defaultForm, getRuns, listRuns, sourceOffer } from "~/services/backtest/runs.server";
import { MAX_PERIOD_DAYS } from "~/services/backtest/data.server";
import { getConnection } from "~/services/broker/broker.server";
import { DomainError } from "~/services/platform/errors.server";
import { getSettings } from "~/services/trading/settings.server";
import { ReportCard } from "~/components/research/report-card";
import { LongSourceHint, LongSourceOption, PickSourceButton } from "~/components/backtest/long-source";
import { reportCard } from "~/services/research/edge-table.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "backtest", "metaTitle");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAppUser(request);
  const url = new URL(request.url);
  const [offer, runs, settings, conn] = await Promise.all([sourceOffer(user.id), listRuns(user.id), getSettings(user.id), getConnection(user.id)]);
  const compareIds = url.searchParams.getAll("compare");
  const compared = compareIds.length ? (await getRuns(user.id, compareIds)).filter((r) => r.status === "done" && r.result) : [];
  return { offer, defaults: defaultForm(offer, url.searchParams.get("source")), longDefaults: defaultForm(offer, "long"), runs, settings, reportCard: reportCard(settings, settings.aiSettings.tradingStyle), currency: conn?.account_currency ?? "USD", compared, compareAsked: compareIds.length > 0, maxDays: MAX_PERIOD_DAYS };
}

interface ActionResult {
  message: string;
  values: Record<string, string | string[]>;
}

/** Creates a run from the form and goes to its page; a refusal comes back with its message (4xx). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireAppUser(request);
  const language = toLanguage(user.preferences?.language);
  const form = await readForm(request, language);
  const values = {
    source: String(form.get("source") ?? ""),
    instruments: form.getAll("instruments").map(String),
    from: String(form.get("from") ?? ""),
    to: String(form.get("to") ?? ""),
    initialBalance: String(form.get("initialBalance") ?? ""),
  };
  try {
    assertSameOrigin(request);
    const run = await createRun(user, { ...values, initialBalance: values.initialBalance || undefined });
    return redirect(`/backtest/${run.id}`);
  } catch (err) {
    if (err instanceof DomainError) return data<ActionResult>({ message: err.messageIn(language), values }, { status: err.status });
    throw err;
  }
}

/** The backtest page. */
export default function BacktestPage() {
  const d = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const { t } = useTranslation("backtest");
  const display = useDisplay();
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const v = failed?.values;
  const [source, setSource] = useState<string>(String(v?.source ?? d.defaults?.source ?? "shipped"));
  const range = source === "broker" ? d.offer.broker : source === "long" ? d.offer.long : d.offer.shipped;
  const defaults = source === "long" ? d.longDefaults : d.defaults;
  const checked = new Set<string>((v?.instruments as string[] | undefined) ?? defaults?.instruments ?? []);
  const sameDefaults = defaults?.source === source;
  const fromDefault = String(v?.from ?? (sameDefaults ? defaults?.from : range?.minDate) ?? "");
  const toDefault = String(v?.to ?? (sameDefaults ? defaults?.to : range?.maxDate) ?? "");
  const doneRuns = d.runs.filter((r) => r.status === "done");
  const labels = d.compared.map((r, i) => `${t("compare.run", { n: i + 1 })} · ${pairsLabel(r.params.instruments)}`);

  return (
    <main className="mx-auto max-w-6xl space-y-5 px-4 pb-8 pt-4 md:pt-8">
      <div>
        <h1 className="text-2xl font-bold text-white">{t("title")}</h1>
        <p className="text-sm text-slate-400">{t("subtitle")}</p>
      </div>

      <div className="grid gap-5 lg:grid-cols-[3fr_2fr]">
        <Card title={t("form.title")}>
          {!range && !d.offer.shipped ? (
            <p className="text-sm text-slate-400">{t("form.noData")}</p>
          ) : (
            <Form method="post" className="space-y-4" data-testid="backtest-form" key={source}>
              {failed?.message && (
                <Banner tone="error">
                  <span data-testid="backtest-error">{failed.message}</span>
                </Banner>
              )}
              <fieldset>
                <legend className="mb-1.5 text-sm font-medium text-slate-300">{t("form.source")}</legend>
                <div className="flex flex-col gap-1.5">
                  <label className="flex min-h-10 items-center gap-2 text-sm text-slate-200">
                    <input type="radio" name="source" value="shipped" checked={source === "shipped"} onChange={() => setSource("shipped")} disabled={!d.offer.shipped} className="h-4 w-4 accent-emerald-500" />
                    {d.offer.shipped ? t("form.sourceShipped", { from: display.date(`${d.offer.shipped.minDate}T12:00:00Z`), to: display.date(`${d.offer.shipped.maxDate}T12:00:00Z`) }) : t("form.noData")}
                  </label>
                  <label className="flex min-h-10 items-center gap-2 text-sm text-slate-200">
                    <input type="radio" name="source" value="broker" checked={source === "broker"} onChange={() => setSource("broker")} disabled={!d.offer.broker} className="h-4 w-4 accent-emerald-500" />
                    {d.offer.broker ? t("form.sourceBroker") : t("form.sourceBrokerOff")}
                  </label>
                  {d.offer.long && <LongSourceOption long={d.offer.long} checked={source === "long"} onPick={() => setSource("long")} />}
                </div>
                {d.offer.long && <PickSourceButton />}
              </fieldset>
              <fieldset>
                <legend className="mb-1.5 text-sm font-medium text-slate-300">{t("form.pairs")}</legend>
                <div className="flex flex-wrap gap-2">
                  {(range?.instruments ?? []).map((i) => (
                    <label key={i} className="flex min-h-10 items-center gap-2 rounded-xl border border-white/10 bg-white/5 px-3 text-sm text-slate-100">
                      <input type="checkbox" name="instruments" value={i} defaultChecked={checked.has(i)} className="h-4 w-4 accent-emerald-500" data-testid={`pair-${i}`} />
                      {formatInstrument(i)}
                    </label>
                  ))}
                </div>
              </fieldset>
              <div className="grid grid-cols-2 gap-3">
                <label className="text-sm text-slate-300">
                  {t("form.from")}
                  <input type="date" name="from" required defaultValue={fromDefault} min={range?.minDate} max={range?.maxDate} data-testid="from"
                    className="mt-1 block min-h-11 w-full rounded-xl border border-white/10 bg-slate-950/60 px-3 text-slate-100" />
                </label>
                <label className="text-sm text-slate-300">
                  {t("form.to")}
                  <input type="date" name="to" required defaultValue={toDefault} min={range?.minDate} max={range?.maxDate} data-testid="to"
                    className="mt-1 block min-h-11 w-full rounded-xl border border-white/10 bg-slate-950/60 px-3 text-slate-100" />
                </label>
              </div>
              {range && source !== "long" && <p className="text-xs text-slate-500">{t("form.rangeHint", { from: range.minDate, to: range.maxDate, days: d.maxDays })}</p>}
              {source === "long" && d.offer.long && <LongSourceHint long={d.offer.long} />}
              <label className="block text-sm text-slate-300">
                {t("form.balance", { currency: d.currency })}
                <input type="number" name="initialBalance" min={100} max={10000000} step="0.01" defaultValue={String(v?.initialBalance || 10000)}
                  className="mt-1 block min-h-11 w-full rounded-xl border border-white/10 bg-slate-950/60 px-3 text-slate-100" />
              </label>
              <Button type="submit" loading={submitting} data-testid="run-backtest" className="w-full sm:w-auto">
                {submitting ? t("form.submitting") : t("form.submit")}
              </Button>
            </Form>
          )}
        </Card>
        <SettingsSummary settings={d.settings} />
      </div>

      <ReportCard card={d.reportCard} />

      <Card title={t("list.title")}>
        {d.runs.length === 0 ? (
          <p className="text-sm text-slate-400" data-testid="runs-empty">{t("list.empty")}</p>
        ) : (
          <Form method="get" data-testid="compare-form">
            <ul className="divide-y divide-white/5" data-testid="run-list">
              {d.runs.map((run) => (
                <li key={run.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2" data-testid="run-item" data-run-id={run.id} data-status={run.status}>
                  {run.status === "done" && (
                    <input type="checkbox" name="compare" value={run.id} defaultChecked={d.compared.some((c) => c.id === run.id)} aria-label={t("list.select", { name: pairsLabel(run.params.instruments) })}
                      className="h-5 w-5 accent-emerald-500" data-testid="compare-check" />
                  )}
                  <Link to={`/backtest/${run.id}`} className="min-h-10 flex-1 py-2 font-semibold text-slate-100 hover:text-emerald-300">
                    {pairsLabel(run.params.instruments)}{" "}
                    <span className="font-normal text-slate-400">
                      · {run.params.from} → {run.params.to} · {t(`source.${run.params.source}`)}
                    </span>
                  </Link>
                  <span className="text-xs text-slate-500">{display.dateTime(run.createdAt)}</span>
                  <StatusBadge status={run.status} />
                  {(run.status === "queued" || run.status === "running") && <span className="text-xs tabular-nums text-slate-400">{run.progress}%</span>}
                </li>
              ))}
            </ul>
            {doneRuns.length >= 2 && (
              <div className="mt-3 flex flex-wrap items-center gap-3">
                <Button type="submit" variant="secondary" data-testid="compare-submit">
                  {t("list.compare")}
                </Button>
                <span className="text-xs text-slate-500">{t("list.compareHint")}</span>
              </div>
            )}
          </Form>
        )}
      </Card>

      {d.compareAsked && (
        <Card title={t("compare.title")} data-testid="compare">
          {d.compared.length < 2 ? (
            <p className="text-sm text-slate-400">{t("compare.needTwo")}</p>
          ) : (
            <div className="space-y-4">
              <CompareChart runs={d.compared} labels={labels} />
              <StatsTable runs={d.compared} labels={labels} />
            </div>
          )}
        </Card>
      )}
    </main>
  );
}

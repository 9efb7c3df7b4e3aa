/**
 * /settings 'Parâmetros de Trading e IA' (PRODUCT.md §3 Trading settings, §4 style choice, §5 bounds;
 * issue 21 report card): style, scalper switch and its advanced block, instruments, timeframe,
 * indicators and news filter of the settings form, each with the schema's error under it (`err`).
 * Choosing a style sets the scalper switch (scalper on, the others off: `scalperEnabledFor`) and the
 * report card follows the style being chosen, before it is saved.
 */
import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AI_TIMEFRAMES, SUPPORTED_INSTRUMENTS } from "../../../core/instruments";
import { NEWS_SENSITIVITIES, type TradingSettings, type TradingStyle } from "../../../core/settings";
import { ReportCard } from "~/components/research/report-card";
import { Card } from "~/components/ui";
import { scalperEnabledFor, showScalperBlock, STYLE_OPTIONS } from "~/lib/settings-form";
import type { ReportCardView } from "~/services/research/edge-table.server";
import { CheckboxField, NumberField, SelectField, TextField, type FieldErrorOf } from "./fields";

const INDICATORS = ["rsi", "macd", "ema", "bollinger", "stochastic"] as const;

/**
 * The AI card of the settings form. `reportCards`: the report card of every style; `loadedAt`: when the
 * server values were read (fresh values — after Recarregar or a save — reset the style and the switch).
 */
export function AiCard({
  settings: s,
  reportCards,
  loadedAt,
  err,
}: {
  settings: TradingSettings;
  reportCards: Record<TradingStyle, ReportCardView>;
  loadedAt: string;
  err: FieldErrorOf;
}) {
  const { t } = useTranslation("settings");
  const [style, setStyle] = useState<string>(s.aiSettings.tradingStyle);
  const [scalperOn, setScalperOn] = useState<boolean>(s.aiSettings.scalper.enabled);
  useEffect(() => {
    setStyle(s.aiSettings.tradingStyle);
    setScalperOn(s.aiSettings.scalper.enabled);
  }, [loadedAt, s]);

  return (
    <Card
      title={t("ai.title")}
      data-testid="ai-section"
      action={
        <Link to="/backtest" className="text-sm font-semibold text-emerald-300 underline-offset-2 hover:underline" data-testid="backtest-link">
          {t("backtest:settingsLink")}
        </Link>
      }
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <SelectField
          name="aiSettings.tradingStyle"
          label={t("ai.tradingStyle")}
          value={style}
          onChange={(e) => {
            setStyle(e.target.value);
            setScalperOn(scalperEnabledFor(e.target.value));
          }}
          options={STYLE_OPTIONS.map((v) => ({ value: v, label: t(`ai.style.${v}`) }))}
        />
        <div className="flex items-end">
          <CheckboxField name="aiSettings.scalper.enabled" label={t("ai.scalperEnabled")} checked={scalperOn} onChange={(e) => setScalperOn(e.target.checked)} />
        </div>
        <TextField
          name="instruments"
          label={t("ai.instruments")}
          defaultValue={s.instruments === "*" ? "*" : s.instruments.join(", ")}
          hint={t("ai.instrumentsHint", { list: SUPPORTED_INSTRUMENTS.join(", ") })}
          error={err("instruments")}
        />
      </div>
      <ReportCard card={reportCards[style as TradingStyle] ?? reportCards[s.aiSettings.tradingStyle]} className="mt-5 bg-slate-950/40" />

      <fieldset hidden={!showScalperBlock(style, scalperOn)} className="mt-5 rounded-xl border border-sky-400/20 bg-sky-500/5 p-4" data-testid="scalper-block">
        <legend className="px-1 text-sm font-semibold text-sky-300">{t("ai.scalperTitle")}</legend>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <NumberField name="aiSettings.scalper.maxHoldSec" label={t("ai.maxHoldSec")} defaultValue={s.aiSettings.scalper.maxHoldSec} error={err("aiSettings.scalper.maxHoldSec")} />
          <NumberField name="aiSettings.scalper.microAtrPeriod" label={t("ai.microAtrPeriod")} defaultValue={s.aiSettings.scalper.microAtrPeriod} error={err("aiSettings.scalper.microAtrPeriod")} />
          <NumberField name="aiSettings.scalper.impulseLookback" label={t("ai.impulseLookback")} defaultValue={s.aiSettings.scalper.impulseLookback} error={err("aiSettings.scalper.impulseLookback")} />
          <NumberField name="aiSettings.scalper.impulseThreshold" label={t("ai.impulseThreshold")} defaultValue={s.aiSettings.scalper.impulseThreshold} error={err("aiSettings.scalper.impulseThreshold")} />
          <NumberField name="aiSettings.scalper.trailMult" label={t("ai.trailMult")} defaultValue={s.aiSettings.scalper.trailMult} error={err("aiSettings.scalper.trailMult")} />
        </div>
        <div className="mt-4 grid gap-2 sm:grid-cols-3">
          <CheckboxField name="aiSettings.scalper.m1FallbackToM5" label={t("ai.m1FallbackToM5")} defaultChecked={s.aiSettings.scalper.m1FallbackToM5} />
          <CheckboxField name="aiSettings.scalper.trailWithMicroAtr" label={t("ai.trailWithMicroAtr")} defaultChecked={s.aiSettings.scalper.trailWithMicroAtr} />
          <CheckboxField name="aiSettings.scalper.reduceTpOnChop" label={t("ai.reduceTpOnChop")} defaultChecked={s.aiSettings.scalper.reduceTpOnChop} />
        </div>
      </fieldset>

      <div className="mt-5 grid gap-4 sm:grid-cols-2">
        <div className="flex items-end">
          <CheckboxField name="aiSettings.autoTimeframeSelection" label={t("ai.autoTimeframe")} defaultChecked={s.aiSettings.autoTimeframeSelection} />
        </div>
        <SelectField
          name="timeframe"
          label={t("ai.timeframe")}
          defaultValue={s.timeframe ?? ""}
          hint={t("ai.timeframeHint")}
          options={[{ value: "", label: t("ai.timeframeNone") }, ...AI_TIMEFRAMES.map((tf) => ({ value: tf, label: tf }))]}
          error={err("timeframe")}
        />
      </div>

      <h3 className="mb-2 mt-5 text-sm font-semibold text-slate-300">{t("ai.indicators")}</h3>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5">
        {INDICATORS.map((k) => (
          <CheckboxField key={k} name={`aiSettings.indicators.${k}`} label={t(`ai.${k}`)} defaultChecked={s.aiSettings.indicators[k]} />
        ))}
      </div>

      <h3 className="mb-2 mt-5 text-sm font-semibold text-slate-300">{t("ai.news")}</h3>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <CheckboxField name="aiSettings.news.enabled" label={t("ai.newsEnabled")} defaultChecked={s.aiSettings.news.enabled} />
        <CheckboxField name="aiSettings.news.impactedOnly" label={t("ai.impactedOnly")} defaultChecked={s.aiSettings.news.impactedOnly} />
        <SelectField
          name="aiSettings.news.sensitivity"
          label={t("ai.sensitivity")}
          defaultValue={s.aiSettings.news.sensitivity}
          options={NEWS_SENSITIVITIES.map((v) => ({ value: v, label: t(`ai.sensitivityLevel.${v}`) }))}
        />
        <NumberField name="aiSettings.news.blackout.beforeMin" label={t("ai.beforeMin")} defaultValue={s.aiSettings.news.blackout.beforeMin} error={err("aiSettings.news.blackout.beforeMin")} />
        <NumberField name="aiSettings.news.blackout.afterMin" label={t("ai.afterMin")} defaultValue={s.aiSettings.news.blackout.afterMin} error={err("aiSettings.news.blackout.afterMin")} />
      </div>
    </Card>
  );
}

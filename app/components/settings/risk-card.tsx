/**
 * /settings 'Gestão de Risco' (PRODUCT.md §3 Trading settings, §5 bounds; issue 7 trading hours,
 * weekend guard and the unrealized-loss option; issue 21 leverage cap; issue 22 trading-day boundary):
 * the risk fields of the settings form, each with the schema's error under it (`err`).
 */
import { useTranslation } from "react-i18next";
import type { TradingSettings } from "../../../core/settings";
import { Card } from "~/components/ui";
import { WEEKDAY_OPTIONS, WEEKDAYS_FIELD, WEEKEND_MODE_OPTIONS } from "~/lib/settings-form";
import { CheckboxField, DaysField, NumberField, SelectField, TimeField, type FieldErrorOf } from "./fields";
import { LeverageField } from "./leverage-field";
import { TradingDayField } from "./trading-day-field";

/** The risk card of the settings form; `timezone` is the user's (the trading hours are read in it). */
export function RiskCard({ settings: s, timezone, err }: { settings: TradingSettings; timezone: string; err: FieldErrorOf }) {
  const { t } = useTranslation("settings");
  return (
    <Card title={t("risk.title")} data-testid="risk-section">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <SelectField
          name="lotMode"
          label={t("risk.lotMode")}
          defaultValue={s.lotMode}
          options={[
            { value: "auto", label: t("risk.lotAuto") },
            { value: "fixed", label: t("risk.lotFixed") },
          ]}
          error={err("lotMode")}
        />
        <NumberField name="fixedLot" label={t("risk.fixedLot")} defaultValue={s.fixedLot} error={err("fixedLot")} />
        <LeverageField defaultValue={s.maxLeveragePerTrade} error={err("maxLeveragePerTrade")} />
        <NumberField name="maxDailyTrades" label={t("risk.maxDailyTrades")} defaultValue={s.maxDailyTrades} error={err("maxDailyTrades")} />
        <NumberField name="maxDrawdownPct" label={t("risk.maxDrawdownPct")} defaultValue={s.maxDrawdownPct} error={err("maxDrawdownPct")} />
        <NumberField name="dailyLossLimitPct" label={t("risk.dailyLossLimitPct")} defaultValue={s.dailyLossLimitPct} error={err("dailyLossLimitPct")} />
        <NumberField name="maxTrades" label={t("risk.maxTrades")} defaultValue={s.maxTrades} error={err("maxTrades")} />
        <NumberField name="tpRatio" label={t("risk.tpRatio")} defaultValue={s.tpRatio} error={err("tpRatio")} />
        <NumberField name="slRatio" label={t("risk.slRatio")} defaultValue={s.slRatio} error={err("slRatio")} />
        <NumberField name="aiSettings.cooldownSec" label={t("risk.cooldownSec")} defaultValue={s.aiSettings.cooldownSec} error={err("aiSettings.cooldownSec")} />
      </div>
      <div className="mt-4">
        <CheckboxField name="dailyLossIncludesUnrealized" label={t("risk.dailyLossIncludesUnrealized")} defaultChecked={s.dailyLossIncludesUnrealized} />
      </div>
      <div className="mt-4 sm:max-w-md" data-testid="trading-day-boundary">
        <TradingDayField defaultValue={s.tradingDayBoundary} error={err("tradingDayBoundary")} />
      </div>

      <fieldset className="mt-5 rounded-xl border border-white/10 p-4" data-testid="trading-hours">
        <legend className="px-1 text-sm font-semibold text-slate-300">{t("risk.tradingHours")}</legend>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <div className="flex items-end">
            <CheckboxField name="tradingHours.enabled" label={t("risk.tradingHoursEnabled")} defaultChecked={s.tradingHours.enabled} />
          </div>
          <TimeField name="tradingHours.start" label={t("risk.start")} defaultValue={s.tradingHours.start} error={err("tradingHours.start")} />
          <TimeField name="tradingHours.end" label={t("risk.end")} defaultValue={s.tradingHours.end} error={err("tradingHours.end")} />
        </div>
        <div className="mt-4">
          <DaysField
            name={WEEKDAYS_FIELD}
            legend={t("risk.days")}
            options={WEEKDAY_OPTIONS.map((day) => ({ value: day, label: t(`risk.weekday.${day}`) }))}
            defaultValue={s.tradingHours.days}
            error={err(WEEKDAYS_FIELD)}
          />
        </div>
        <p className="mt-2 text-xs text-slate-500">{t("risk.tradingHoursHint", { timezone: timezone.replace(/_/g, " ") })}</p>
      </fieldset>

      <div className="mt-5 grid gap-4 sm:grid-cols-2">
        <SelectField
          name="weekend.mode"
          label={t("risk.weekend")}
          defaultValue={s.weekend.mode}
          options={WEEKEND_MODE_OPTIONS.map((m) => ({ value: m, label: t(`risk.weekendMode.${m}`) }))}
          hint={t("risk.weekendHint")}
          error={err("weekend.mode")}
        />
        <NumberField name="weekend.minutesBeforeClose" label={t("risk.minutesBeforeClose")} defaultValue={s.weekend.minutesBeforeClose} error={err("weekend.minutesBeforeClose")} />
      </div>
    </Card>
  );
}

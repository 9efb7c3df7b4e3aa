/**
 * The "Início do dia de negociação" select of the settings form (issue 22): local midnight or the
 * 17:00 New York close, the boundary of the daily loss limit, the trades-per-day count and today's
 * statistics (core/risk/trading-day.ts `tradingDay`). A plain <select> in the settings <Form>: works
 * without JavaScript; the form schema (core/settings.ts) validates `tradingDayBoundary`.
 */
import { useTranslation } from "react-i18next";
import { TRADING_DAY_BOUNDARIES, type TradingDayBoundary } from "../../../core/risk/trading-day";
import { SelectField } from "./fields";

/** The select, showing `defaultValue` (the stored setting) and the form's error for the field, if any. */
export function TradingDayField({ defaultValue, error }: { defaultValue: TradingDayBoundary; error?: string | null }) {
  const { t } = useTranslation("trading-day");
  return (
    <SelectField
      name="tradingDayBoundary"
      label={t("label")}
      defaultValue={defaultValue}
      options={TRADING_DAY_BOUNDARIES.map((b) => ({ value: b, label: t(`option.${b}`) }))}
      hint={t("hint")}
      error={error ?? null}
    />
  );
}

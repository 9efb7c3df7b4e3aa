/**
 * /settings language, timezone and display currency (PRODUCT.md §3 User preferences; issue 22 display
 * currency): the preferences card of the settings form, saved with the trading settings in one
 * transaction; each select shows the schema's error under it (`err`). A stored value outside the
 * offered lists shows the default (Portuguese, the first timezone).
 */
import { useTranslation } from "react-i18next";
import { Card } from "~/components/ui";
import { DISPLAY_CURRENCIES, type DisplayCurrency } from "~/lib/display-currency";
import { LANGUAGES, TIMEZONES } from "~/lib/settings-form";
import { SelectField, type FieldErrorOf } from "./fields";

/** The user's stored preferences as the loader reads them. */
export interface PreferencesView {
  language: string;
  timezone: string;
  currency: DisplayCurrency;
}

/** The preferences card of the settings form. */
export function PreferencesCard({ preferences, err }: { preferences: PreferencesView; err: FieldErrorOf }) {
  const { t } = useTranslation("settings");
  return (
    <Card title={t("prefs.title")} data-testid="prefs-section">
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          name="preferences.language"
          label={t("prefs.language")}
          defaultValue={LANGUAGES.includes(preferences.language as (typeof LANGUAGES)[number]) ? preferences.language : "pt"}
          options={LANGUAGES.map((l) => ({ value: l, label: t(`prefs.lang.${l}`) }))}
          error={err("preferences.language")}
        />
        <SelectField
          name="preferences.timezone"
          label={t("prefs.timezone")}
          defaultValue={TIMEZONES.includes(preferences.timezone as (typeof TIMEZONES)[number]) ? preferences.timezone : TIMEZONES[0]}
          options={TIMEZONES.map((z) => ({ value: z, label: z.replace(/_/g, " ") }))}
          error={err("preferences.timezone")}
        />
        {/* Issue 22: the display currency (amounts also shown converted at the broker's rate). */}
        <SelectField
          name="preferences.currency"
          label={t("display-currency:field.label")}
          defaultValue={preferences.currency}
          options={DISPLAY_CURRENCIES.map((c) => ({ value: c, label: t(`display-currency:field.option.${c}`) }))}
          hint={t("display-currency:field.hint")}
          error={err("preferences.currency")}
        />
      </div>
    </Card>
  );
}

/**
 * The `maxLeveragePerTrade` setting in /settings 'Gestão de Risco' (issue 21, ADR 0034): a number
 * field (1–MAX_LEVERAGE_LIMIT ×, step 0.5; core/settings.ts) with a plain-language explanation of
 * what it does — the position never exceeds N× the balance, so with short stops the real risk falls
 * below the 1 % of automatic sizing. The explanation follows what is typed (with JavaScript); without
 * it, the saved value.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { MAX_LEVERAGE_LIMIT } from "../../../core/settings";
import { useDisplay } from "~/lib/hooks";
import { NumberField } from "./fields";

/** The leverage cap field and its explanation. */
export function LeverageField({ defaultValue, error }: { defaultValue: number; error?: string | null }) {
  const { t } = useTranslation("settings");
  const { number } = useDisplay();
  const [typed, setTyped] = useState<number>(defaultValue);
  const shown = Number.isFinite(typed) && typed >= 1 && typed <= MAX_LEVERAGE_LIMIT ? typed : defaultValue;
  return (
    <div
      data-testid="max-leverage"
      onInput={(e) => {
        const target = e.target as HTMLInputElement;
        if (target.name === "maxLeveragePerTrade") setTyped(Number(target.value.replace(",", ".")));
      }}
    >
      <NumberField name="maxLeveragePerTrade" label={t("risk.maxLeveragePerTrade")} defaultValue={defaultValue} error={error} />
      <p className="mt-1 text-xs text-slate-400" data-testid="max-leverage-hint">
        {t("risk.maxLeverageHint", { leverage: number(shown, shown % 1 ? 1 : 0), max: MAX_LEVERAGE_LIMIT })}
      </p>
    </div>
  );
}

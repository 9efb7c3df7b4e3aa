/** Password field with a show/hide toggle and, optionally, the live rule checklist (PRODUCT.md §5). */
import clsx from "clsx";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PASSWORD_RULES } from "~/lib/validation";
import { CheckIcon, EyeIcon, EyeOffIcon, XIcon } from "../icons";
import { Field } from "../ui";

/** A password input whose visibility can be toggled; shows the rule labels when `rules` is set. */
export function PasswordInput({
  id,
  name = "password",
  label,
  value,
  onChange,
  rules = false,
  autoComplete,
  placeholder,
  error,
}: {
  id: string;
  name?: string;
  label?: string;
  value: string;
  onChange: (v: string) => void;
  rules?: boolean;
  autoComplete: string;
  placeholder?: string;
  error?: string | null;
}) {
  const { t } = useTranslation("auth");
  const [visible, setVisible] = useState(false);
  return (
    <div>
      <Field
        id={id}
        name={name}
        label={label ?? t("fields.password")}
        type={visible ? "text" : "password"}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete={autoComplete}
        placeholder={placeholder}
        required
        error={error}
        trailing={
          <button
            type="button"
            onClick={() => setVisible((v) => !v)}
            className="grid h-9 w-9 place-items-center rounded-lg text-slate-400 hover:bg-white/10 hover:text-slate-100"
            aria-label={visible ? t("fields.hidePassword") : t("fields.showPassword")}
            aria-pressed={visible}
            aria-controls={id}
          >
            {visible ? <EyeOffIcon size={18} /> : <EyeIcon size={18} />}
          </button>
        }
      />
      {rules && (
        <ul className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-xs" aria-label={t("fields.rulesLabel")}>
          {PASSWORD_RULES.map((rule) => {
            const ok = rule.test(value);
            return (
              <li key={rule.key} className={clsx("flex items-center gap-1.5", ok ? "text-emerald-300" : "text-slate-400")} data-ok={ok}>
                {ok ? <CheckIcon size={14} /> : <XIcon size={14} />}
                <span>{t(`rules.${rule.key}`)}</span>
                <span className="sr-only">{ok ? t("fields.ruleMet") : t("fields.rulePending")}</span>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

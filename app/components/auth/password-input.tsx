/** Password field with a show/hide toggle and, optionally, the live rule checklist (PRODUCT.md §5). */
import clsx from "clsx";
import { useState } from "react";
import { PASSWORD_RULES } from "~/services/validation";
import { CheckIcon, EyeIcon, EyeOffIcon, XIcon } from "../icons";
import { Field } from "../ui";

/** A password input whose visibility can be toggled; shows the rule labels when `rules` is set. */
export function PasswordInput({
  id,
  label = "Senha",
  value,
  onChange,
  rules = false,
  autoComplete,
  placeholder,
  error,
}: {
  id: string;
  label?: string;
  value: string;
  onChange: (v: string) => void;
  rules?: boolean;
  autoComplete: string;
  placeholder?: string;
  error?: string | null;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <div>
      <Field
        id={id}
        name="password"
        label={label}
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
            aria-label={visible ? "Ocultar senha" : "Mostrar senha"}
            aria-pressed={visible}
            aria-controls={id}
          >
            {visible ? <EyeOffIcon size={18} /> : <EyeIcon size={18} />}
          </button>
        }
      />
      {rules && (
        <ul className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-xs" aria-label="Requisitos da senha">
          {PASSWORD_RULES.map((rule) => {
            const ok = rule.test(value);
            return (
              <li key={rule.label} className={clsx("flex items-center gap-1.5", ok ? "text-emerald-300" : "text-slate-400")} data-ok={ok}>
                {ok ? <CheckIcon size={14} /> : <XIcon size={14} />}
                <span>{rule.label}</span>
                <span className="sr-only">{ok ? "(atendido)" : "(pendente)"}</span>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

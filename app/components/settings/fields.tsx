/**
 * Settings form fields: number inputs carrying the PRODUCT.md §5 min/max/step (from
 * `NUMBER_FIELDS`), checkboxes, selects, time inputs and a weekday set; each shows its error (the server's message, in the
 * user's language) under the field, and number fields a range hint in the user's locale (0,5 in
 * Portuguese, 0.5 in English). Names are the dotted setting paths the form schema parses.
 */
import clsx from "clsx";
import type { ChangeEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useDisplay } from "~/lib/hooks";
import { NUMBER_FIELDS } from "~/lib/settings-form";

const INPUT =
  "block min-h-11 w-full rounded-xl border bg-slate-950/60 px-3 py-2 text-sm text-slate-100 placeholder:text-slate-500 focus:outline-none focus:ring-2";
const OK = "border-white/10 focus:border-emerald-400/60 focus:ring-emerald-400/30";
const BAD = "border-rose-400/60 focus:ring-rose-400/40";

/** The error shown under a field, by its dotted name (the schema's message in the user's language), or null. */
export type FieldErrorOf = (name: string) => string | null;

/** DOM id of a field name. */
export function fieldId(name: string): string {
  return `s-${name.replace(/\./g, "-")}`;
}

function ErrorLine({ id, error }: { id: string; error?: string | null }) {
  if (!error) return null;
  return (
    <p id={`${id}-error`} className="mt-1 text-xs text-rose-300" data-testid="field-error">
      {error}
    </p>
  );
}

/** A bound for a hint in the user's locale, without grouping (like the validation messages): 0.5 → "0,5" in pt-BR, "0.5" in en-US. */
export function hintNumber(n: number, locale: string): string {
  return new Intl.NumberFormat(locale, { useGrouping: false, maximumFractionDigits: 10 }).format(n);
}

/** A numeric setting with its HTML min/max/step and a range hint. */
export function NumberField({ name, label, defaultValue, error }: { name: string; label: string; defaultValue: number | undefined; error?: string | null }) {
  const { t } = useTranslation("settings");
  const { locale } = useDisplay();
  const rule = NUMBER_FIELDS[name];
  const id = fieldId(name);
  const num = (n: number) => hintNumber(n, locale);
  const hint = rule ? (rule.max === undefined ? t("rangeMin", { min: num(rule.min) }) : t("range", { min: num(rule.min), max: num(rule.max) })) : null;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-300">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="number"
        inputMode="decimal"
        min={rule?.min}
        max={rule?.max}
        step={rule?.step}
        defaultValue={defaultValue ?? ""}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        className={clsx(INPUT, error ? BAD : OK)}
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      <ErrorLine id={id} error={error} />
    </div>
  );
}

/** A boolean setting: absent from the submitted form means false. */
export function CheckboxField({
  name,
  label,
  defaultChecked,
  checked,
  onChange,
}: {
  name: string;
  label: ReactNode;
  defaultChecked?: boolean;
  checked?: boolean;
  onChange?: (e: ChangeEvent<HTMLInputElement>) => void;
}) {
  const id = fieldId(name);
  return (
    <label htmlFor={id} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl bg-white/[0.03] px-3 py-2 text-sm text-slate-200 ring-1 ring-white/5">
      <input
        id={id}
        name={name}
        type="checkbox"
        value="on"
        {...(checked === undefined ? { defaultChecked } : { checked, onChange })}
        className="h-5 w-5 accent-emerald-500"
      />
      <span>{label}</span>
    </label>
  );
}

/** A select setting. */
export function SelectField({
  name,
  label,
  options,
  defaultValue,
  value,
  onChange,
  hint,
  error,
}: {
  name: string;
  label: string;
  options: { value: string; label: string }[];
  defaultValue?: string;
  value?: string;
  onChange?: (e: ChangeEvent<HTMLSelectElement>) => void;
  hint?: string;
  error?: string | null;
}) {
  const id = fieldId(name);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-300">
        {label}
      </label>
      <select
        id={id}
        name={name}
        {...(value === undefined ? { defaultValue } : { value, onChange })}
        aria-invalid={error ? true : undefined}
        className={clsx(INPUT, error ? BAD : OK)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint && <p className="mt-1 text-xs text-slate-500">{hint}</p>}
      <ErrorLine id={id} error={error} />
    </div>
  );
}

/** A text setting (instruments). */
export function TextField(props: { name: string; label: string; defaultValue: string; hint?: string; error?: string | null }) {
  return <PlainInput {...props} type="text" />;
}

/** A "HH:MM" setting (trading hours): a native time input, which posts "HH:MM" with or without JavaScript. */
export function TimeField(props: { name: string; label: string; defaultValue: string; error?: string | null }) {
  return <PlainInput {...props} type="time" step={60} />;
}

/** One labelled <input> with its hint and error line (text and time settings). */
function PlainInput({
  name,
  label,
  defaultValue,
  hint,
  error,
  type,
  step,
}: {
  name: string;
  label: string;
  defaultValue: string;
  hint?: string;
  error?: string | null;
  type: "text" | "time";
  step?: number;
}) {
  const id = fieldId(name);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-300">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        {...(step !== undefined ? { step } : {})}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={clsx(INPUT, error ? BAD : OK)}
      />
      {hint && <p className="mt-1 text-xs text-slate-500">{hint}</p>}
      <ErrorLine id={id} error={error} />
    </div>
  );
}

/** A set of days: one checkbox per option, all posted under `name` (one value per ticked day). */
export function DaysField({
  name,
  legend,
  options,
  defaultValue,
  error,
}: {
  name: string;
  legend: string;
  options: { value: number; label: string }[];
  defaultValue: readonly number[];
  error?: string | null;
}) {
  const id = fieldId(name);
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-1 block text-sm font-medium text-slate-300">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((o) => (
          <label
            key={o.value}
            htmlFor={`${id}-${o.value}`}
            className={clsx(
              "flex min-h-11 min-w-14 cursor-pointer items-center gap-2 rounded-xl bg-white/[0.03] px-3 py-2 text-sm text-slate-200 ring-1",
              error ? "ring-rose-400/60" : "ring-white/5",
            )}
          >
            <input id={`${id}-${o.value}`} name={name} type="checkbox" value={String(o.value)} defaultChecked={defaultValue.includes(o.value)} className="h-5 w-5 accent-emerald-500" />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      <ErrorLine id={id} error={error} />
    </fieldset>
  );
}

/** UI primitives of the dark trading theme: card, button, badge, banner, spinner, field, stat tiles, data table. */
import clsx from "clsx";
import type { ButtonHTMLAttributes, HTMLAttributes, InputHTMLAttributes, ReactNode, TableHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import type { Tone } from "~/lib/tone";
import { XIcon } from "./icons";

/** A dark surface card with an optional title row. */
export function Card({
  title,
  action,
  className,
  children,
  ...rest
}: { title?: ReactNode; action?: ReactNode; className?: string; children: ReactNode } & Omit<React.HTMLAttributes<HTMLElement>, "title">) {
  return (
    <section className={clsx("rounded-2xl border border-white/10 bg-slate-900/70 p-4 shadow-lg shadow-black/20 backdrop-blur md:p-5", className)} {...rest}>
      {(title || action) && (
        <div className="mb-3 flex items-center justify-between gap-3">
          {title && <h2 className="text-sm font-semibold tracking-wide text-slate-300">{title}</h2>}
          {action}
        </div>
      )}
      {children}
    </section>
  );
}

const BUTTON_VARIANTS = {
  primary: "bg-emerald-500 text-slate-950 hover:bg-emerald-400 focus-visible:outline-emerald-300",
  secondary: "bg-white/10 text-slate-100 hover:bg-white/15 focus-visible:outline-slate-300",
  danger: "bg-rose-500/15 text-rose-300 hover:bg-rose-500/25 focus-visible:outline-rose-300",
  ghost: "bg-transparent text-slate-300 hover:bg-white/10 focus-visible:outline-slate-300",
} as const;

/** A button in one of the theme variants; shows a spinner while `loading`. */
export function Button({
  variant = "primary",
  loading = false,
  className,
  children,
  disabled,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof BUTTON_VARIANTS; loading?: boolean }) {
  return (
    <button
      className={clsx(
        "inline-flex min-h-11 items-center justify-center gap-2 rounded-xl px-4 py-2.5 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-50",
        BUTTON_VARIANTS[variant],
        className,
      )}
      disabled={disabled || loading}
      {...rest}
    >
      {loading && <Spinner />}
      {children}
    </button>
  );
}

const TONES: Record<Tone, string> = {
  green: "bg-emerald-500/15 text-emerald-300 ring-emerald-400/30",
  red: "bg-rose-500/15 text-rose-300 ring-rose-400/30",
  amber: "bg-amber-500/15 text-amber-300 ring-amber-400/30",
  orange: "bg-orange-500/15 text-orange-300 ring-orange-400/30",
  grey: "bg-slate-500/15 text-slate-300 ring-slate-400/30",
  blue: "bg-sky-500/15 text-sky-300 ring-sky-400/30",
};

/** Colour tones shared by badges and the hero (defined in app/lib, which the browser's pure helpers share). */
export type { Tone };

/** A small pill badge. */
export function Badge({ tone = "grey", className, children, ...rest }: { tone?: Tone; className?: string; children: ReactNode } & React.HTMLAttributes<HTMLSpanElement>) {
  return (
    <span className={clsx("inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold ring-1", TONES[tone], className)} {...rest}>
      {children}
    </span>
  );
}

/** A success / error / warning / info banner with an optional close button. */
export function Banner({
  tone = "info",
  children,
  onClose,
  className,
}: {
  tone?: "success" | "error" | "warning" | "info";
  children: ReactNode;
  onClose?: () => void;
  className?: string;
}) {
  const { t } = useTranslation("common");
  const cls = {
    success: "border-emerald-400/30 bg-emerald-500/10 text-emerald-200",
    error: "border-rose-400/30 bg-rose-500/10 text-rose-200",
    warning: "border-amber-400/30 bg-amber-500/10 text-amber-200",
    info: "border-sky-400/30 bg-sky-500/10 text-sky-200",
  }[tone];
  return (
    <div role={tone === "error" ? "alert" : "status"} className={clsx("flex items-start gap-3 rounded-xl border px-4 py-3 text-sm", cls, className)}>
      <div className="flex-1">{children}</div>
      {onClose && (
        <button type="button" onClick={onClose} aria-label={t("close")} className="rounded p-0.5 opacity-70 hover:opacity-100">
          <XIcon size={16} />
        </button>
      )}
    </div>
  );
}

/** A small spinning indicator. */
export function Spinner({ className }: { className?: string }) {
  return <span aria-hidden="true" className={clsx("inline-block h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent", className)} />;
}

/** A labelled text input with an optional error line. */
export function Field({
  label,
  error,
  className,
  trailing,
  id,
  ...rest
}: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | null; trailing?: ReactNode; id: string }) {
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-300">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={clsx(
            "block min-h-11 w-full rounded-xl border bg-slate-950/60 px-3.5 py-2.5 text-slate-100 placeholder:text-slate-500 focus:outline-none focus:ring-2",
            error ? "border-rose-400/60 focus:ring-rose-400/40" : "border-white/10 focus:border-emerald-400/60 focus:ring-emerald-400/30",
            trailing ? "pr-11" : undefined,
          )}
          {...rest}
        />
        {trailing && <div className="absolute inset-y-0 right-1 flex items-center">{trailing}</div>}
      </div>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs text-rose-300">
          {error}
        </p>
      )}
    </div>
  );
}

/** The surface of a stat tile (`Stat`, `StatTerm`). */
export const TILE = "rounded-xl bg-white/[0.03] p-3 ring-1 ring-white/5";

/** A label/value row for figure cards. */
export function Stat({ label, value, tone, hint, className }: { label: string; value: ReactNode; tone?: "up" | "down" | "neutral"; hint?: ReactNode; className?: string }) {
  return (
    <div className={clsx("min-w-0", TILE, className)}>
      <p className="text-xs text-slate-400">{label}</p>
      <p
        className={clsx(
          "mt-1 truncate whitespace-nowrap text-base font-semibold tabular-nums xl:text-lg",
          tone === "up" ? "text-emerald-300" : tone === "down" ? "text-rose-300" : "text-slate-100",
        )}
      >
        {value}
      </p>
      {hint && <p className="mt-0.5 text-xs text-slate-400">{hint}</p>}
    </div>
  );
}

/** 'up' / 'down' / 'neutral' from a signed number (P&L colours). */
export function signTone(n: number | null | undefined): "up" | "down" | "neutral" {
  if (n === null || n === undefined || !Number.isFinite(n) || n === 0) return "neutral";
  return n > 0 ? "up" : "down";
}

/**
 * A stat tile inside a description list (`<dl>`): the label as its `dt`, the value as its `dd`; `rest`
 * goes to the `dd` (e.g. `data-testid`).
 */
export function StatTerm({ label, children, ...rest }: { label: ReactNode; children: ReactNode } & HTMLAttributes<HTMLElement>) {
  return (
    <div className={TILE}>
      <dt className="text-xs text-slate-400">{label}</dt>
      <dd className="mt-0.5 font-medium text-slate-200" {...rest}>
        {children}
      </dd>
    </div>
  );
}

/** One column of a `DataTable`: its header, the cell of a row, and the padding of both. */
export interface Column<Row> {
  id: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Classes of the header and the cells (default `px-3 py-3`). */
  className?: string;
  /** Extra classes of the cells only. */
  cellClassName?: string;
}

/** Attributes of a table row, `data-*` included. */
export type RowAttributes = HTMLAttributes<HTMLTableRowElement> & { [data: `data-${string}`]: string | undefined };

/**
 * The theme's data table: a bordered, horizontally scrolling surface with the uppercase header row and
 * divided, top-aligned rows. `className` goes to the surface (e.g. `hidden lg:block` for a desktop-only
 * table), `rest` to the `<table>`, `rowProps` to each row.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  rowProps,
  className,
  ...rest
}: {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowProps?: (row: Row) => RowAttributes;
  className?: string;
} & Omit<TableHTMLAttributes<HTMLTableElement>, "className" | "children">) {
  return (
    <div className={clsx("overflow-x-auto rounded-2xl border border-white/10 bg-slate-900/70", className)}>
      <table className="w-full text-left text-sm" {...rest}>
        <thead className="border-b border-white/10 text-xs uppercase tracking-wide text-slate-400">
          <tr>
            {columns.map((c) => (
              <th key={c.id} scope="col" className={c.className ?? "px-3 py-3"}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-white/5">
          {rows.map((row) => (
            <tr key={rowKey(row)} className="align-top" {...rowProps?.(row)}>
              {columns.map((c) => (
                <td key={c.id} className={clsx(c.className ?? "px-3 py-3", c.cellClassName)}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The history filter form (PRODUCT.md §2 History, §5 History filters): a real GET <Form> whose fields
 * are the URL query, so a filtered view can be bookmarked and works without JavaScript ('Aplicar
 * Filtros'). With JavaScript the filters apply live (text fields debounced), are validated with the
 * same zod schema as the server, and the URL is replaced with only the non-empty filters. Messages
 * are `history` catalog keys (ADR 0007), shown in the reader's language.
 */
import { Form, Link, useLocation, useNavigate } from "@remix-run/react";
import clsx from "clsx";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { formatMsg, type Msg } from "../../../core/i18n/message";
import { filterIssue, filtersToSearch, historyFiltersSchema, type HistoryFilters } from "~/lib/history";
import { Button } from "../ui";

const INPUT =
  "block min-h-11 w-full rounded-xl border border-white/10 bg-slate-950/60 px-3 py-2 text-sm text-slate-100 placeholder:text-slate-500 focus:border-emerald-400/60 focus:outline-none focus:ring-2 focus:ring-emerald-400/30";
const LABEL = "mb-1 block text-xs font-medium text-slate-400";
const DEBOUNCE_MS = 350;

/** Reads the form into raw filter values. */
function formValues(form: HTMLFormElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new FormData(form)) if (typeof v === "string") out[k] = v;
  return out;
}

/** Filter form + desktop search; `error` is the server's message for a bad filter. */
export function HistoryFilterForm({ filters, error, errorField }: { filters: HistoryFilters; error: Msg | string | null; errorField: string | null }) {
  const { t } = useTranslation("history");
  const navigate = useNavigate();
  const location = useLocation();
  const [clientError, setClientError] = useState<{ msg: Msg | string; field: string } | null>(null);
  const timer = useRef<number | undefined>(undefined);
  // Remount the (uncontrolled) fields when the URL changes from elsewhere: 'Limpar Filtros', back/forward.
  const ownSearch = useRef(location.search);
  const [formKey, setFormKey] = useState(0);
  useEffect(() => {
    if (location.search !== ownSearch.current) {
      ownSearch.current = location.search;
      setClientError(null);
      setFormKey((k) => k + 1);
    }
  }, [location.search]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  function apply(form: HTMLFormElement) {
    window.clearTimeout(timer.current);
    const parsed = historyFiltersSchema.safeParse(formValues(form));
    if (!parsed.success) {
      setClientError(filterIssue(parsed.error));
      return;
    }
    setClientError(null);
    const search = filtersToSearch(parsed.data);
    if (search === location.search) return;
    ownSearch.current = search;
    navigate(`/history${search}`, { replace: true, preventScrollReset: true });
  }

  function onChange(e: FormEvent<HTMLFormElement>) {
    const form = e.currentTarget;
    const target = e.target as HTMLInputElement;
    window.clearTimeout(timer.current);
    if (target.type === "text" || target.type === "search" || target.type === "number") timer.current = window.setTimeout(() => apply(form), DEBOUNCE_MS);
    else apply(form);
  }

  const shownError = clientError ?? (error ? { msg: error, field: errorField ?? "" } : null);
  const invalid = (name: string) => (shownError?.field === name ? true : undefined);

  return (
    <Form
      key={formKey}
      method="get"
      action="/history"
      role="search"
      aria-label={t("filters.title")}
      data-testid="history-filters"
      onChange={onChange}
      onSubmit={(e) => {
        e.preventDefault();
        apply(e.currentTarget);
      }}
      className="space-y-3 rounded-2xl border border-white/10 bg-slate-900/70 p-4"
    >
      <div className="hidden lg:block">
        <label htmlFor="history-q" className={LABEL}>
          {t("searchLabel")}
        </label>
        <input id="history-q" name="q" type="search" defaultValue={filters.q ?? ""} placeholder={t("searchPlaceholder")} maxLength={100} className={INPUT} aria-invalid={invalid("q")} />
      </div>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4 lg:grid-cols-7">
        <div className="col-span-2 md:col-span-1">
          <label htmlFor="history-instrument" className={LABEL}>
            {t("filters.instrument")}
          </label>
          <input
            id="history-instrument"
            name="instrument"
            type="text"
            list="history-instruments"
            defaultValue={filters.instrument ?? ""}
            placeholder={t("filters.instrumentPlaceholder")}
            maxLength={20}
            autoComplete="off"
            className={INPUT}
            aria-invalid={invalid("instrument")}
          />
          <datalist id="history-instruments">
            <option value="EUR_USD" />
            <option value="GBP_USD" />
            <option value="USD_JPY" />
          </datalist>
        </div>
        <div>
          <label htmlFor="history-side" className={LABEL}>
            {t("filters.side")}
          </label>
          <select id="history-side" name="side" defaultValue={filters.side ?? ""} className={INPUT}>
            <option value="">{t("filters.sideAll")}</option>
            <option value="buy">{t("filters.buy")}</option>
            <option value="sell">{t("filters.sell")}</option>
          </select>
        </div>
        <div>
          <label htmlFor="history-result" className={LABEL}>
            {t("filters.result")}
          </label>
          <select id="history-result" name="result" defaultValue={filters.result ?? ""} className={INPUT}>
            <option value="">{t("filters.resultAll")}</option>
            <option value="WIN">{t("filters.WIN")}</option>
            <option value="LOSS">{t("filters.LOSS")}</option>
            <option value="BE">{t("filters.BE")}</option>
          </select>
        </div>
        <div>
          <label htmlFor="history-dateFrom" className={LABEL}>
            {t("filters.dateFrom")}
          </label>
          <input id="history-dateFrom" name="dateFrom" type="date" defaultValue={filters.dateFrom ?? ""} className={INPUT} aria-invalid={invalid("dateFrom")} />
        </div>
        <div>
          <label htmlFor="history-dateTo" className={LABEL}>
            {t("filters.dateTo")}
          </label>
          <input id="history-dateTo" name="dateTo" type="date" defaultValue={filters.dateTo ?? ""} className={INPUT} aria-invalid={invalid("dateTo")} />
        </div>
        <div>
          <label htmlFor="history-minPnL" className={LABEL}>
            {t("filters.minPnL")}
          </label>
          <input id="history-minPnL" name="minPnL" type="number" step="any" inputMode="decimal" defaultValue={filters.minPnL ?? ""} className={INPUT} aria-invalid={invalid("minPnL")} />
        </div>
        <div>
          <label htmlFor="history-maxPnL" className={LABEL}>
            {t("filters.maxPnL")}
          </label>
          <input id="history-maxPnL" name="maxPnL" type="number" step="any" inputMode="decimal" defaultValue={filters.maxPnL ?? ""} className={INPUT} aria-invalid={invalid("maxPnL")} />
        </div>
      </div>
      {shownError && (
        <p role="alert" className="text-sm text-rose-300" data-testid="filter-error">
          {formatMsg((key, options) => t(key, options), shownError.msg)}
        </p>
      )}
      <div className={clsx("flex flex-wrap gap-2")}>
        <Button type="submit" variant="secondary">
          {t("filters.apply")}
        </Button>
        <Link to="/history" className="inline-flex min-h-11 items-center justify-center rounded-xl px-4 text-sm font-semibold text-slate-300 hover:bg-white/10">
          {t("clearFilters")}
        </Link>
      </div>
    </Form>
  );
}

/**
 * "Reativar a IA?" (issue 21): shown when ATIVAR IA is pressed while a max-drawdown stop waits for
 * the re-arm. States the drawdown (% and amount), the high-water mark and the current NAV, and that
 * re-arming resets the mark to the current NAV. Server-rendered, so it reads the same without
 * JavaScript: its confirm button posts intent=start&rearm=1 to the hero's action (the page
 * intercepts it when JS runs and calls POST /api/trades/ai/loop/start {rearm: true}); "Cancelar" is a
 * link back to the hero.
 */
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { drawdownFrom, type DrawdownStop } from "../../core/risk/drawdown";
import { useDisplay } from "~/lib/hooks";
import { Banner } from "./ui";

/** What the confirmation shows: figures in account currency as decimal strings (null: unknown). */
export interface RearmView {
  limitPct: string | null;
  highWaterMark: string | null;
  nav: string | null;
  drawdownPct: string | null;
  drawdownAmount: string | null;
  currency: string;
}

/**
 * The confirmation's figures from the status's `drawdownStop` (the record of the stop and the mark kept
 * since) and the account as the hero reads it now: the drawdown is the current one, (mark − NAV now) /
 * mark (core/risk/drawdown.ts); the NAV of the stop stands in when the account is not readable.
 * Null when there is no drawdown stop to re-arm.
 */
export function rearmView(
  stop: (Partial<DrawdownStop> & { highWaterMarkNow?: string | null }) | null | undefined,
  account: { nav?: string | null; currency?: string | null } | null | undefined,
  limitPct: number | string | null,
): RearmView | null {
  if (!stop) return null;
  const highWaterMark = stop.highWaterMarkNow ?? stop.highWaterMark ?? null;
  const nav = account?.nav ?? stop.nav ?? null;
  const dd = highWaterMark !== null && nav !== null ? drawdownFrom(highWaterMark, nav) : null;
  return {
    limitPct: stop.limitPct ?? (limitPct === null ? null : String(limitPct)),
    highWaterMark,
    nav,
    drawdownPct: dd?.pct ?? null,
    drawdownAmount: dd?.amount ?? null,
    currency: account?.currency ?? stop.currency ?? "USD",
  };
}

/** The re-arm confirmation (see module doc); `preflightWarns` adds that the pre-flight warnings still apply. */
export function RearmConfirm({ view, preflightWarns, onConfirm, onCancel }: { view: RearmView; preflightWarns?: boolean; onConfirm?: () => void; onCancel?: () => void }) {
  const { t } = useTranslation("hero");
  const fmt = useDisplay();
  const money = (v: string | null) => (v === null ? "—" : fmt.money(v, view.currency));
  const pct = (v: string | null) => (v === null ? "—" : fmt.percent(Number(v), 2));
  const row = (testId: string, label: string, value: string) => (
    <div className="flex items-baseline justify-between gap-3">
      <dt className="text-amber-100/80">{label}</dt>
      <dd className="text-right font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
  return (
    <div role="alertdialog" aria-labelledby="rearm-title" aria-describedby="rearm-reset" className="mt-4 w-full max-w-sm text-left" data-testid="rearm-confirm">
      <Banner tone="warning">
        <p id="rearm-title" className="text-base font-bold">
          {t("rearm.title")}
        </p>
        <p className="mt-1 text-sm">{t("rearm.intro", { limit: view.limitPct === null ? "—" : fmt.number(Number(view.limitPct), 1) })}</p>
        <dl className="mt-3 space-y-1 text-sm">
          {row("rearm-drawdown", t("rearm.drawdown"), view.drawdownPct === null ? "—" : `${pct(view.drawdownPct)} (${money(view.drawdownAmount)})`)}
          {row("rearm-hwm", t("rearm.highWaterMark"), money(view.highWaterMark))}
          {row("rearm-nav", t("rearm.nav"), money(view.nav))}
        </dl>
        <p id="rearm-reset" className="mt-3 text-sm" data-testid="rearm-reset">
          {t("rearm.reset", { nav: money(view.nav) })}
        </p>
        {preflightWarns && <p className="mt-2 text-xs text-amber-100/80">{t("rearm.preflightNote")}</p>}
        <Form
          method="post"
          className="mt-3 flex flex-wrap gap-2"
          onSubmit={(e) => {
            if (!onConfirm) return;
            e.preventDefault();
            onConfirm();
          }}
        >
          <input type="hidden" name="intent" value="start" />
          <input type="hidden" name="rearm" value="1" />
          <button type="submit" className="min-h-11 rounded-xl bg-amber-400 px-4 py-2 text-sm font-bold text-slate-950 hover:bg-amber-300" data-testid="rearm-confirm-start">
            {t("rearm.confirm")}
          </button>
          <Link
            to="/"
            onClick={() => onCancel?.()}
            className="inline-flex min-h-11 items-center rounded-xl border border-white/20 px-4 py-2 text-sm font-semibold text-slate-100 hover:bg-white/5"
            data-testid="rearm-confirm-cancel"
          >
            {t("rearm.cancel")}
          </Link>
        </Form>
      </Banner>
    </div>
  );
}

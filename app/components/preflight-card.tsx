/**
 * "Verificação antes de ativar" (issue 12): the pre-flight figures of core/risk/preflight.ts on the
 * hero — worst-case loss per trade and per day, margin needed, the real risk per trade at a typical
 * stop with the leverage cap (issue 21), the per-instrument table and the warnings — and the confirmation shown when ATIVAR IA is pressed with warnings ("Ativar mesmo
 * assim" / "Cancelar"). Server-rendered, so it reads the same without JavaScript; the confirmation's
 * buttons are form submits (the hero's no-JS action) that the page intercepts when JS runs.
 */
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatMsg } from "../../core/i18n/message";
import type { PreflightResult } from "../../core/risk/preflight";
import { formatInstrument } from "~/lib/format";
import { useDisplay } from "~/lib/hooks";
import { Banner, Card } from "./ui";

/**
 * The loader's view of core/risk/preflight.ts PreflightResult: the result itself. The hero's loader
 * returns it as is, and single fetch (turbo-stream) hands it to the page with its types; every field
 * is JSON-safe anyway (strings, numbers, booleans, arrays and `Msg` objects).
 */
export type PreflightView = PreflightResult;

/** True when the check has warnings the user must confirm (a missing price alone is not one). */
export function preflightNeedsConfirmation(p: PreflightView | null | undefined): boolean {
  return !!p && p.warnings.some((w) => w.code !== "noPrice");
}

/** The warnings list (amber), each in the reader's language. */
function Warnings({ preflight }: { preflight: PreflightView }) {
  const { t } = useTranslation("preflight");
  const fmt = useDisplay();
  // The core's figures are plain decimal strings ("10.00"): shown in the reader's locale ("10,00").
  const localized = (m: PreflightView["warnings"][number]["message"]) =>
    typeof m === "string"
      ? m
      : {
          ...m,
          params: Object.fromEntries(
            Object.entries(m.params ?? {}).map(([k, v]) => [k, typeof v === "string" && /^-?\d+\.\d+$/.test(v) ? fmt.number(Number(v), (v.split(".")[1] ?? "").length) : v]),
          ),
        };
  if (preflight.warnings.length === 0) return <p className="mt-3 text-sm text-emerald-300" data-testid="preflight-ok">{t("noWarnings")}</p>;
  return (
    <ul className="mt-3 space-y-1.5" data-testid="preflight-warnings">
      {preflight.warnings.map((w, i) => (
        <li key={`${w.code}-${w.instrument ?? ""}-${i}`} className={w.code === "noPrice" ? "text-sm text-slate-400" : "rounded-lg bg-amber-500/10 px-3 py-2 text-sm font-medium text-amber-200 ring-1 ring-amber-400/30"} data-code={w.code}>
          {formatMsg(t, localized(w.message))}
        </li>
      ))}
    </ul>
  );
}

/** The compact card with the three figures, the sizing line, the per-instrument table and the warnings. */
export function PreflightCard({ preflight, error }: { preflight: PreflightView | null; error?: string | null }) {
  const { t } = useTranslation("preflight");
  const fmt = useDisplay();
  if (!preflight) {
    return (
      <Card title={t("title")} data-testid="preflight-card">
        <p className="text-sm text-slate-400" data-testid="preflight-unavailable">
          {t("unavailable", { reason: error ?? "—" })}
        </p>
      </Card>
    );
  }
  const ccy = preflight.accountCurrency;
  const money = (v: string) => fmt.money(v, ccy);
  const figure = (testId: string, label: string, value: string, detail: string) => (
    <div className="rounded-xl bg-white/[0.03] p-3 ring-1 ring-white/5">
      <dt className="text-xs text-slate-400">{label}</dt>
      <dd className="mt-0.5 text-lg font-bold text-slate-100" data-testid={testId}>
        {value}
      </dd>
      <dd className="text-xs text-slate-400">{detail}</dd>
    </div>
  );
  const accepted = preflight.instruments.filter((i) => !i.refused);
  const widest = accepted.find((i) => i.lossPerTrade === preflight.worstTradeLoss) ?? accepted[0];
  const pctText = (v: string) => fmt.number(Number(v), 2);
  const leverageText = (l: number) => fmt.number(l, l % 1 ? 1 : 0);
  const real = preflight.realRisk;
  // Every priced pair refused (fixed lot above the cap): the lot's own risk on the stop, never a 0,00 loss.
  const refusedRow = preflight.allRefused || accepted.length === 0 ? preflight.instruments.filter((i) => i.refused).reduce<PreflightView["instruments"][number] | undefined>((a, b) => (!a || Number(b.lossPerTrade) > Number(a.lossPerTrade) ? b : a), undefined) : undefined;
  const refusedDetail = refusedRow
    ? t("refused.risk", {
        lots: fmt.number(preflight.fixedLot, 2),
        loss: money(refusedRow.lossPerTrade),
        pct: pctText(refusedRow.lossPct),
        pips: fmt.number(refusedRow.stopPips, refusedRow.stopPips % 1 ? 1 : 0),
        timeframe: refusedRow.timeframe,
        maxLots: fmt.number(Number(refusedRow.maxLots ?? 0), 2),
        leverage: leverageText(refusedRow.maxLeverage),
      })
    : t("refused.detail");
  const allRefused = preflight.allRefused || !!refusedRow;
  return (
    <Card
      title={t("title")}
      action={
        <Link to="/settings" className="text-xs font-semibold text-emerald-300 hover:underline">
          {t("adjust")}
        </Link>
      }
      data-testid="preflight-card"
      data-warnings={preflight.warnings.filter((w) => w.code !== "noPrice").length}
    >
      <p className="text-xs text-slate-400">{t("subtitle", { currency: ccy })}</p>
      <dl className="mt-3 grid gap-2 sm:grid-cols-3">
        {allRefused
          ? figure("preflight-per-trade", t("perTrade"), t("refused.value"), refusedDetail)
          : figure(
              "preflight-per-trade",
              t("perTrade"),
              money(preflight.worstTradeLoss),
              widest ? t("perTradeDetail", { pct: pctText(widest.lossPct), pips: widest.stopPips, timeframe: widest.timeframe }) : "",
            )}
        {allRefused
          ? figure("preflight-per-day", t("perDay"), "—", t("refused.none"))
          : figure("preflight-per-day", t("perDay"), money(preflight.worstDayLoss), `${t("perDayDetail", { pct: pctText(preflight.worstDayPct), limit: money(preflight.dailyLossLimit) })} · ${t(`binding.${preflight.binding}`)}`)}
        {allRefused
          ? figure("preflight-margin", t("margin"), "—", t("refused.none"))
          : figure("preflight-margin", t("margin"), money(preflight.marginNeeded), t("marginDetail", { trades: preflight.concurrent, pct: pctText(preflight.marginPct) }))}
      </dl>
      <p className="mt-2 text-xs text-slate-300">
        <span data-testid="preflight-sizing">
          {preflight.lotMode === "fixed" ? t("sizing.fixed", { lots: fmt.number(preflight.fixedLot, 2) }) : t("sizing.auto", { pct: preflight.riskPct })}
        </span>
        {" · "}
        <span data-testid="preflight-leverage">{t("sizing.leverage", { leverage: leverageText(preflight.maxLeveragePerTrade) })}</span>
      </p>
      {real && (
        <p className="mt-1 rounded-lg bg-sky-500/10 px-3 py-2 text-sm text-sky-100 ring-1 ring-sky-400/20" data-testid="preflight-real-risk" data-capped={real.capped ? "1" : "0"}>
          {t("realRisk.line", { pct: pctText(real.pct), amount: money(real.amount), pips: fmt.number(real.stopPips, real.stopPips % 1 ? 1 : 0), timeframe: real.timeframe })}
          {real.capped ? t("realRisk.capped", { leverage: leverageText(real.maxLeverage), riskPct: preflight.riskPct }) : t("realRisk.full")}
        </p>
      )}
      <Warnings preflight={preflight} />
      {preflight.instruments.length > 0 && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer text-xs text-slate-400">{t("instrument")}</summary>
          <div className="mt-2 overflow-x-auto">
            <table className="w-full text-left text-xs" data-testid="preflight-table">
              <thead className="text-slate-400">
                <tr>
                  <th className="py-1 pr-2">{t("instrument")}</th>
                  <th className="py-1 pr-2 text-right">{t("units")}</th>
                  <th className="py-1 pr-2 text-right">{t("loss")}</th>
                  <th className="py-1 pr-2 text-right">{t("realRiskCol")}</th>
                  <th className="py-1 text-right">{t("marginCol")}</th>
                </tr>
              </thead>
              <tbody className="text-slate-200">
                {preflight.instruments.map((i) => (
                  <tr key={i.instrument} className="border-t border-white/5">
                    <td className="py-1 pr-2">{formatInstrument(i.instrument)}</td>
                    <td className="py-1 pr-2 text-right">{fmt.number(Number(i.units), 0)}</td>
                    <td className="py-1 pr-2 text-right">{i.refused ? t("refused.value") : money(i.lossPerTrade)}</td>
                    <td className="py-1 pr-2 text-right">{i.refused ? "—" : `${pctText(i.typicalLossPct)} %`}</td>
                    <td className="py-1 text-right">{money(i.margin)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
      <p className="mt-2 text-[11px] text-slate-500">{t("assumption")}</p>
    </Card>
  );
}

/**
 * The confirmation after ATIVAR IA when the check has warnings: the warnings, "Ativar mesmo assim"
 * (posts intent=start with confirm=1) and "Cancelar" (a link back to `/`, which also clears a no-JS
 * answer). `onConfirm` runs instead of the form submission when JavaScript is on; `onCancel` runs
 * before the link's navigation.
 */
export function PreflightConfirm({ preflight, onConfirm, onCancel }: { preflight: PreflightView; onConfirm?: () => void; onCancel?: () => void }) {
  const { t } = useTranslation("preflight");
  return (
    // A modal above the navigation dock (z-30): fixed over the page, its panel scrolls within the
    // viewport and keeps clear of the dock's height, so "Cancelar" is never under it (390×844, 1440×900).
    <div className="fixed inset-0 z-50 flex items-end justify-center bg-slate-950/70 p-4 pb-[calc(1rem+env(safe-area-inset-bottom))] backdrop-blur-sm sm:items-center" data-testid="preflight-confirm-overlay">
    <div role="alertdialog" aria-modal="true" aria-labelledby="preflight-confirm-title" className="max-h-[calc(100dvh-2rem)] w-full max-w-sm overflow-y-auto overscroll-contain rounded-xl bg-slate-900 text-left shadow-2xl shadow-black/50" data-testid="preflight-confirm">
      <Banner tone="warning">
        <p id="preflight-confirm-title" className="font-semibold">
          {t("warningsTitle")}
        </p>
        <Warnings preflight={preflight} />
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
          <input type="hidden" name="confirm" value="1" />
          <button type="submit" className="min-h-11 rounded-xl bg-amber-400 px-4 py-2 text-sm font-bold text-slate-950 hover:bg-amber-300" data-testid="preflight-confirm-start">
            {t("confirm")}
          </button>
          <Link
            to="/"
            onClick={() => onCancel?.()}
            className="inline-flex min-h-11 items-center rounded-xl border border-white/20 px-4 py-2 text-sm font-semibold text-slate-100 hover:bg-white/5"
            data-testid="preflight-confirm-cancel"
          >
            {t("cancel")}
          </Link>
        </Form>
      </Banner>
    </div>
    </div>
  );
}

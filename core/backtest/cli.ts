/**
 * `npm run backtest -- --instrument EUR_USD --data <dir> [--from ISO] [--to ISO]
 *  [--spread 1] [--balance 10000] [--currency USD] [--style swing]`
 * Prints a summary table and the trades. Exits 1 with a message on bad arguments or missing files.
 * Uses the default trading settings (PRODUCT.md §9), optionally with another trading style.
 */
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { instrumentSpec } from "../instruments";
import { defaultSettings, parseSettingsUpdate } from "../settings";
import { loadCsvCandles } from "./csv";
import { runBacktest } from "./run";
import type { BacktestResult } from "./run";

const USAGE = "Uso: npm run backtest -- --instrument EUR_USD --data <pasta> [--from ISO] [--to ISO] [--spread 1] [--balance 10000] [--currency USD] [--style swing]";

function fail(msg: string): never {
  console.error(`Erro: ${msg}\n${USAGE}`);
  process.exit(1);
}

/** The summary table and trade list as text. */
export function formatReport(r: BacktestResult, currency: string): string {
  const s = r.stats;
  const rows: [string, string][] = [
    ["Instrumento", r.instrument],
    ["Timeframe de passo", r.stepTimeframe],
    ["Candles", String(r.candles)],
    ["Trades", String(s.trades)],
    ["Ganhos / perdas / empates", `${s.wins} / ${s.losses} / ${s.breakeven}`],
    ["Taxa de acerto", `${s.winRatePct.toFixed(1)}%`],
    ["Fator de lucro (ganho médio / perda média)", s.profitFactor === null ? "—" : s.profitFactor.toFixed(2)],
    ["Pips líquidos", s.netPips.toFixed(1)],
    [`Resultado líquido (${currency})`, s.netPnl],
    [`Saldo final (${currency})`, s.finalBalance],
    ["Drawdown máximo", `${s.maxDrawdownPct.toFixed(2)}%`],
    ["Paradas do robô", String(r.stops.length)],
    ["Bloqueios de risco", Object.entries(r.blocked).map(([k, v]) => `${k}=${v}`).join(", ") || "—"],
    ["Candles por segundo", r.candlesPerSecond === undefined ? "—" : String(r.candlesPerSecond)],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`);
  lines.push("", "Trades:", "entrada (UTC)         lado   unidades   tf   preço      SL         TP         saída (UTC)           preço      motivo          pips    P&L");
  for (const t of r.trades) {
    lines.push(
      [
        t.entryTime.slice(0, 19),
        t.side.padEnd(5),
        t.units.padStart(9),
        t.timeframe.padEnd(3),
        t.entryPrice.padEnd(10),
        t.stopLoss.padEnd(10),
        t.takeProfit.padEnd(10),
        t.exitTime.slice(0, 19),
        t.exitPrice.padEnd(10),
        t.exitReason.padEnd(14),
        t.pips.toFixed(1).padStart(6),
        t.pnl.padStart(11),
      ].join("  "),
    );
  }
  for (const st of r.stops) lines.push(`Parada ${st.time}: ${st.reason}`);
  return lines.join("\n");
}

function main(): void {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        instrument: { type: "string" },
        data: { type: "string" },
        from: { type: "string" },
        to: { type: "string" },
        spread: { type: "string", default: "1" },
        balance: { type: "string", default: "10000" },
        currency: { type: "string", default: "USD" },
        style: { type: "string" },
      },
      strict: true,
    }) as { values: Record<string, string | undefined> });
  } catch (e) {
    fail((e as Error).message);
  }
  const instrument = values.instrument?.toUpperCase();
  if (!instrument) fail("--instrument é obrigatório");
  try {
    instrumentSpec(instrument);
  } catch {
    fail(`instrumento inválido: ${instrument}`);
  }
  if (!values.data) fail("--data é obrigatório");
  for (const k of ["from", "to"] as const) if (values[k] !== undefined && !Number.isFinite(Date.parse(values[k]!))) fail(`--${k} não é uma data ISO válida: ${values[k]}`);
  const spread = Number(values.spread);
  if (!Number.isFinite(spread) || spread < 0) fail(`--spread inválido: ${values.spread}`);
  const balance = Number(values.balance);
  if (!Number.isFinite(balance) || balance <= 0) fail(`--balance inválido: ${values.balance}`);
  let settings = defaultSettings();
  if (values.style) {
    const r = parseSettingsUpdate({ aiSettings: { tradingStyle: values.style } }, settings);
    if (!r.ok) fail(r.message);
    settings = r.settings;
  }
  try {
    const candlesByTf = loadCsvCandles(values.data, instrument);
    const result = runBacktest({
      instrument,
      candlesByTf,
      settings,
      ...(values.from ? { from: values.from } : {}),
      ...(values.to ? { to: values.to } : {}),
      spreadPips: spread,
      initialBalance: values.balance!,
      accountCurrency: values.currency!.toUpperCase(),
      clock: () => performance.now(),
    });
    console.log(formatReport(result, values.currency!.toUpperCase()));
  } catch (e) {
    fail((e as Error).message);
  }
}

main();

/**
 * `npm run backtest -- --instrument EUR_USD[,GBP_USD,...] --data <dir> [--from ISO] [--to ISO]
 *  [--balance 10000] [--currency USD] [--style swing] [--commission USD_PER_LOT] [--financing PCT_PER_YEAR]
 *  [--json FILE] [--baseline random --seeds 200] [--calendar <csv or folder>]`
 * Runs the live bot's executor over the listed instruments together, in one simulator account
 * (concurrent positions as live; core/backtest/run.ts), and prints a summary (field definitions: profit factor = gross profit / gross loss,
 * payoff = average win / average loss, ADR 0008) and the trades. `--json FILE` writes the settings,
 * per-trade rows, statistics and risk stops as JSON. `--baseline random` also runs `--seeds`
 * random-entry backtests with the same exits, sizing and costs and prints the strategy's
 * percentile among them (core/backtest/baseline.ts). Bid/ask come from the simulator's spread
 * model (per-instrument table, wider at rollover and into the Friday close). `--calendar` applies the
 * news blackout of the settings (PRODUCT.md §9 defaults: 5 min before, 10 after, sensitivity medium,
 * impacted pairs only; ADR 0018) with the events of a calendar CSV file or of every `*.csv` of a
 * folder (format of data/calendar): blocked entries are counted and listed. Exits 1 with a message on bad arguments or missing files.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { randomBaseline } from "../../core/backtest/baseline";
import type { BaselineResult } from "../../core/backtest/baseline";
import { runBacktest } from "../../core/backtest/run";
import type { BacktestOptions, BacktestResult } from "../../core/backtest/run";
import { CalendarIndex, newsCalendar, parseCalendarCsv } from "../../core/calendar";
import type { CalendarEvent } from "../../core/calendar";
import { instrumentSpec } from "../../core/instruments";
import { defaultSettings, parseSettingsUpdate } from "../../core/settings";
import { loadCsvCandles } from "../../app/services/backtest/candle-files";

const USAGE =
  "Uso: npm run backtest -- --instrument EUR_USD[,GBP_USD] --data <pasta> [--from ISO] [--to ISO] [--balance 10000] [--currency USD] [--style swing] [--commission 3.5] [--financing 2] [--json arquivo] [--baseline random --seeds 200] [--calendar arquivo.csv|pasta]";

function fail(msg: string): never {
  console.error(`Erro: ${msg}\n${USAGE}`);
  process.exit(1);
}

const dash = (v: string | null) => v ?? "—";

/**
 * Events of a calendar CSV file, or of every `*.csv` in a folder (data/calendar format).
 * @throws Error (Portuguese) when the path is missing or has no CSV file, or a row is invalid
 */
export function loadCalendarFiles(p: string): CalendarEvent[] {
  if (!existsSync(p)) throw new Error(`Calendário não encontrado: ${p}`);
  const files = statSync(p).isDirectory()
    ? readdirSync(p)
        .filter((f) => f.endsWith(".csv"))
        .sort()
        .map((f) => join(p, f))
    : [p];
  if (!files.length) throw new Error(`Nenhum arquivo .csv em ${p}`);
  return files.flatMap((f) => parseCalendarCsv(readFileSync(f, "utf8"), f));
}

/** The summary table and trade list of a run as text. */
export function formatReport(r: BacktestResult, currency: string, baseline?: BaselineResult): string {
  const s = r.stats;
  const rows: [string, string][] = [
    ["Instrumentos", r.instruments.join(", ")],
    ["Timeframe de passo", r.stepTimeframe],
    ["Spread normal (pips)", Object.entries(r.spreadPips).map(([i, p]) => `${i} ${p}`).join(", ")],
    ["Candles", String(r.candles)],
    ["Ticks", String(r.ticks)],
    ["Trades", String(s.trades)],
    ["Ganhos / perdas / empates", `${s.wins} / ${s.losses} / ${s.breakeven}`],
    ["Taxa de acerto", `${dash(s.winRatePct)}%`],
    ["Fator de lucro (lucro bruto / prejuízo bruto)", dash(s.profitFactor)],
    ["Payoff (ganho médio / perda média)", dash(s.payoffRatio)],
    [`Expectativa por trade (${currency})`, dash(s.expectancy)],
    ["Expectativa por trade (R)", dash(s.expectancyR)],
    ["Expectativa por trade (pips)", dash(s.expectancyPips)],
    ["Pips líquidos", dash(s.netPips)],
    [`Resultado líquido (${currency})`, s.netPnl],
    [`Saldo final (${currency})`, dash(s.finalBalance)],
    ["Drawdown máximo", `${dash(s.maxDrawdownPct)}%`],
    ["Sharpe (retornos diários, anualizado √252)", dash(s.sharpe)],
    ["Exposição (tempo posicionado)", `${dash(s.exposurePct)}%`],
    ["Paradas do robô", String(r.stops.length)],
    ["Bloqueios de risco", Object.entries(r.blocked).map(([k, v]) => `${k}=${v}`).join(", ") || "—"],
    ["Entradas bloqueadas por notícias", String(r.newsBlocked.length)],
    ["Candles por segundo", r.candlesPerSecond === undefined ? "—" : String(r.candlesPerSecond)],
  ];
  if (baseline) {
    rows.push([`Linha de base aleatória (${baseline.seeds} sementes): mediana (${currency})`, String(baseline.medianNetPnl)]);
    rows.push(["Percentil da estratégia na linha de base", `${baseline.netPnlPercentile}`]);
  }
  const w = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`);
  lines.push("", "Trades:", "instrumento  entrada (UTC)         lado   unidades   tf   preço      SL         TP         saída (UTC)           preço      motivo          pips      R    P&L");
  for (const t of r.trades) {
    lines.push(
      [
        t.instrument.padEnd(11),
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
        (t.rMultiple ?? "—").padStart(6),
        t.pnl.padStart(11),
      ].join("  "),
    );
  }
  for (const st of r.stops) lines.push(`Parada ${st.time}: ${st.reason}`);
  if (r.newsBlocked.length) {
    lines.push("", "Entradas bloqueadas por notícias:");
    for (const b of r.newsBlocked) lines.push(`${b.time.slice(0, 19)}  ${b.instrument.padEnd(8)}  ${b.event}`);
  }
  return lines.join("\n");
}

/** The machine-readable result of a run (`--json`). */
export function jsonResult(opts: BacktestOptions, r: BacktestResult, baseline?: BaselineResult) {
  return {
    instruments: r.instruments,
    settings: opts.settings,
    from: opts.from ?? null,
    to: opts.to ?? null,
    initialBalance: String(opts.initialBalance),
    accountCurrency: opts.accountCurrency,
    costs: opts.costs ?? {},
    spreadPips: r.spreadPips,
    stepTimeframe: r.stepTimeframe,
    candles: r.candles,
    ticks: r.ticks,
    trades: r.trades.map((t) => ({
      id: t.id,
      instrument: t.instrument,
      entryTime: t.entryTime,
      exitTime: t.exitTime,
      side: t.side,
      units: t.units,
      timeframe: t.timeframe,
      entryPrice: t.entryPrice,
      exitPrice: t.exitPrice,
      stopLoss: t.stopLoss,
      takeProfit: t.takeProfit,
      exitReason: t.exitReason,
      pips: t.pips,
      pnl: t.pnl,
      costs: t.costs,
      risk: t.risk,
      rMultiple: t.rMultiple,
      result: t.result,
    })),
    stats: r.stats,
    stops: r.stops.map(({ time, code, reason }) => ({ time, code, reason })),
    blocked: r.blocked,
    newsBlocked: r.newsBlocked,
    ...(baseline ? { baseline } : {}),
  };
}

async function main(): Promise<void> {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        instrument: { type: "string" },
        data: { type: "string" },
        from: { type: "string" },
        to: { type: "string" },
        balance: { type: "string", default: "10000" },
        currency: { type: "string", default: "USD" },
        style: { type: "string" },
        commission: { type: "string" },
        financing: { type: "string" },
        json: { type: "string" },
        baseline: { type: "string" },
        seeds: { type: "string", default: "200" },
        calendar: { type: "string" },
      },
      strict: true,
    }) as { values: Record<string, string | undefined> });
  } catch (e) {
    fail((e as Error).message);
  }
  const instruments = (values.instrument ?? "").split(",").map((s) => s.trim().toUpperCase()).filter(Boolean);
  if (instruments.length === 0) fail("--instrument é obrigatório");
  for (const instrument of instruments) {
    try {
      instrumentSpec(instrument);
    } catch {
      fail(`instrumento inválido: ${instrument}`);
    }
  }
  if (!values.data) fail("--data é obrigatório");
  for (const k of ["from", "to"] as const) if (values[k] !== undefined && !Number.isFinite(Date.parse(values[k]!))) fail(`--${k} não é uma data ISO válida: ${values[k]}`);
  const balance = Number(values.balance);
  if (!Number.isFinite(balance) || balance <= 0) fail(`--balance inválido: ${values.balance}`);
  if (values.baseline !== undefined && values.baseline !== "random") fail(`--baseline aceita apenas "random": ${values.baseline}`);
  const seeds = Number(values.seeds);
  if (!Number.isInteger(seeds) || seeds < 1 || seeds > 10_000) fail(`--seeds inválido: ${values.seeds}`);
  for (const k of ["commission", "financing"] as const) {
    if (values[k] !== undefined && !/^\d+(\.\d+)?$/.test(values[k]!)) fail(`--${k} inválido (número ≥ 0 com ponto decimal): ${values[k]}`);
  }
  let settings = defaultSettings();
  if (values.style) {
    const r = parseSettingsUpdate({ aiSettings: { tradingStyle: values.style } }, settings);
    if (!r.ok) fail(r.message);
    settings = r.settings;
  }
  const currency = values.currency!.toUpperCase();
  let out: ReturnType<typeof jsonResult>;
  try {
    const dir = values.data;
    const opts: BacktestOptions = {
      instruments,
      candles: Object.fromEntries(instruments.map((i) => [i, loadCsvCandles(dir, i)])),
      settings,
      ...(values.from ? { from: values.from } : {}),
      ...(values.to ? { to: values.to } : {}),
      initialBalance: values.balance!,
      accountCurrency: currency,
      ...(values.calendar ? { calendar: newsCalendar(new CalendarIndex(loadCalendarFiles(values.calendar)), settings.aiSettings.news) } : {}),
      costs: {
        ...(values.commission ? { commissionPerLot: values.commission } : {}),
        ...(values.financing ? { financingPctPerYear: values.financing } : {}),
      },
    };
    const result = await runBacktest({ ...opts, clock: () => performance.now() });
    const baseline = values.baseline === "random" ? await randomBaseline(opts, result, seeds) : undefined;
    console.log(formatReport(result, currency, baseline) + "\n");
    out = jsonResult(opts, result, baseline);
  } catch (e) {
    fail((e as Error).message);
  }
  if (values.json) {
    writeFileSync(values.json, JSON.stringify({ generatedBy: "npm run backtest", ...out }, null, 2));
    console.log(`JSON: ${values.json}`);
  }
}

void main();

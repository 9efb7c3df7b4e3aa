/**
 * Random-entry baseline of the research loop, with an optional time condition (issue 12): a
 * candidate that trades only some hours (session 12:00–16:00 UTC, no entries near the weekend) is
 * ranked against random entries drawn from the same hours, not from the whole week, so the
 * comparison tests its entries and not the hours it keeps.
 *
 * How, with the one executor (core/backtest/run.ts) unchanged: the random run gets a calendar
 * (BacktestOptions.calendar) that is "in blackout" whenever the time condition fails, so the live
 * bot's own news rule (core/risk/rules.ts newsBlackoutRule) refuses every random entry outside the
 * allowed hours; the entry probability is divided by the share of the window's decision times the
 * condition allows, so the random run enters as often per allowed decision as the strategy does.
 * Without a condition this is core/backtest/baseline.ts randomBaseline.
 */
import { percentileRank, randomBaseline } from "../backtest/baseline";
import type { BaselineResult } from "../backtest/baseline";
import { runBacktest } from "../backtest/run";
import type { BacktestOptions, BacktestResult } from "../backtest/run";
import { mulberry32 } from "../random";
import type { NewsCalendar } from "../trading/tick";

/** A calendar whose blackout is active exactly when `allowed(now)` is false (event named "fora do horário do candidato"). */
export function timeBlackoutCalendar(allowed: (now: Date) => boolean): NewsCalendar {
  return { blackout: (_instrument, now) => (allowed(now) ? undefined : { active: true, event: "fora do horário do candidato" }) };
}

/**
 * Share (0–1) of decision instants the condition allows: `times` are the tick instants (UTC ms, bar
 * closes of the step timeframe inside the window). 0 when there are none.
 */
export function allowedShare(times: readonly number[], allowed: (now: Date) => boolean): number {
  if (times.length === 0) return 0;
  let n = 0;
  for (const t of times) if (allowed(new Date(t))) n++;
  return n / times.length;
}

/**
 * `seeds` random-entry runs (seeds 1..N) with `opts` (the candidate's run options; its entryFilter is
 * not used by random runs) and the rank of `strategy`'s net P&L among them. With `timeCondition`,
 * random entries are refused outside it (timeBlackoutCalendar, the news switch forced on) and the
 * entry probability is trades / (ticks × allowed share of `tickTimes`), capped at 1.
 * @throws what runBacktest throws.
 */
export async function researchBaseline(
  opts: BacktestOptions,
  strategy: BacktestResult,
  seeds: number,
  timeCondition?: (now: Date) => boolean,
  tickTimes: readonly number[] = [],
): Promise<BaselineResult> {
  if (!timeCondition) return randomBaseline(opts, strategy, seeds);
  const decisions = strategy.ticks * strategy.instruments.length;
  const share = allowedShare(tickTimes, timeCondition);
  const probability = decisions > 0 && share > 0 ? Math.min(1, strategy.trades.length / (decisions * share)) : 0;
  const settings = { ...opts.settings, aiSettings: { ...opts.settings.aiSettings, news: { ...opts.settings.aiSettings.news, enabled: true } } };
  const netPnl: number[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const { entryFilter: _unused, ...rest } = opts;
    const r = await runBacktest({ ...rest, settings, calendar: timeBlackoutCalendar(timeCondition), clock: undefined, entry: { kind: "random", probability, random: mulberry32(seed) } });
    netPnl.push(Number(r.stats.netPnl));
  }
  const sorted = [...netPnl].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { seeds, probability, netPnl, netPnlPercentile: percentileRank(netPnl, Number(strategy.stats.netPnl)), medianNetPnl: Math.round(median * 100) / 100 };
}

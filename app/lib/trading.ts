/**
 * Pure trading-view logic: dashboard statistics (PRODUCT.md §9: win rate, profit factor = average
 * win / average loss, P&L today by the local day), the live-price chip colour (§4), and the hero
 * gating (§4: offline → no licence → no broker → ready).
 */
import { toNumber } from "./format";

/** A closed trade as far as the statistics need it. */
export interface ClosedTradeLike {
  pnl?: string | number | null;
  closeTime?: string | null;
}

/** Summary statistics of closed trades. */
export interface TradeStats {
  total: number;
  winners: number;
  losers: number;
  pnlTotal: number;
  /** Percent (0–100), null without trades. */
  winRate: number | null;
  /** Average win / average loss; null without losses or wins. */
  profitFactor: number | null;
  pnlToday: number;
}

/** Local midnight of `now` and the next one (P&L today window). */
export function localDayBounds(now: Date): [Date, Date] {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const end = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return [start, end];
}

/** Statistics over closed trades; `now` decides the local day of 'P&L hoje'. */
export function tradeStats(trades: ClosedTradeLike[], now: Date = new Date()): TradeStats {
  const [dayStart, dayEnd] = localDayBounds(now);
  let winners = 0;
  let losers = 0;
  let sumWin = 0;
  let sumLoss = 0;
  let pnlTotal = 0;
  let pnlToday = 0;
  for (const t of trades) {
    const pnl = toNumber(t.pnl) ?? 0;
    pnlTotal += pnl;
    if (pnl > 0) {
      winners++;
      sumWin += pnl;
    } else if (pnl < 0) {
      losers++;
      sumLoss += -pnl;
    }
    const closed = t.closeTime ? Date.parse(t.closeTime) : NaN;
    if (Number.isFinite(closed) && closed >= dayStart.getTime() && closed < dayEnd.getTime()) pnlToday += pnl;
  }
  const total = trades.length;
  const avgWin = winners ? sumWin / winners : 0;
  const avgLoss = losers ? sumLoss / losers : 0;
  return {
    total,
    winners,
    losers,
    pnlTotal: round2(pnlTotal),
    winRate: total ? (winners / total) * 100 : null,
    profitFactor: winners && losers ? avgWin / avgLoss : null,
    pnlToday: round2(pnlToday),
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Colour of the live price chip: favourable vs entry (buy above, sell below) green, else red; unknown grey. */
export function priceTrend(side: string, openPrice: unknown, currentPrice: unknown): "up" | "down" | "unknown" {
  const open = toNumber(openPrice);
  const cur = toNumber(currentPrice);
  if (open === null || cur === null || cur === open) return "unknown";
  const favourable = side === "sell" ? cur < open : cur > open;
  return favourable ? "up" : "down";
}

/** Hero gating states, in order (PRODUCT.md §4). */
export type HeroState = "offline" | "no-licence" | "no-broker" | "paused" | "active";

/** Display of one hero state: badge, title, colour and button label (PRODUCT.md §4). */
export interface HeroView {
  state: HeroState;
  badge: "Online" | "Offline" | "Conectar Oanda" | "Sem Licença";
  title: string;
  message: string;
  tone: "grey" | "amber" | "orange" | "red" | "green";
  button: "ASSINAR" | "CONECTAR OANDA" | "ATIVAR IA" | "DESATIVAR IA";
}

/** Decides the hero state: offline → no licence → no broker → ready (paused / active). */
export function heroView(input: { online: boolean; hasLicense: boolean; brokerConnected: boolean; botActive: boolean }): HeroView {
  if (!input.online)
    return { state: "offline", badge: "Offline", title: "Offline", message: "Sem conexão com a internet", tone: "grey", button: input.botActive ? "DESATIVAR IA" : "ATIVAR IA" };
  if (!input.hasLicense)
    return { state: "no-licence", badge: "Sem Licença", title: "Licença Necessária", message: "Assine um plano para liberar a IA de trading.", tone: "amber", button: "ASSINAR" };
  if (!input.brokerConnected)
    return { state: "no-broker", badge: "Conectar Oanda", title: "Conectar Oanda", message: "Conecte sua conta Oanda para a IA começar a operar.", tone: "orange", button: "CONECTAR OANDA" };
  if (input.botActive)
    return { state: "active", badge: "Online", title: "IA Ativa", message: "A IA está monitorando o mercado 24/7.", tone: "green", button: "DESATIVAR IA" };
  return { state: "paused", badge: "Online", title: "IA Pausada", message: "Toque no botão para a IA começar a operar.", tone: "red", button: "ATIVAR IA" };
}

/** Licence display (PRODUCT.md §4 Licence display): label and tone. */
export function licenceLabel(status: string | null | undefined): { label: string; tone: "green" | "red" | "amber" | "blue" | "grey" } {
  switch (status) {
    case "valid":
      return { label: "Válida", tone: "green" };
    case "expired":
      return { label: "Expirada", tone: "red" };
    case "pending":
      return { label: "Processando", tone: "amber" };
    case "admin":
      return { label: "Administrador", tone: "blue" };
    default:
      return { label: "Sem licença", tone: "grey" };
  }
}

/** Subscription status display (PRODUCT.md §4): active 'Ativa', past_due 'Pagamento Pendente', canceled 'Cancelada', else 'Inativa'. */
export function subscriptionLabel(status: string | null | undefined): string {
  if (status === "active" || status === "trialing") return "Ativa";
  if (status === "past_due") return "Pagamento Pendente";
  if (status === "canceled") return "Cancelada";
  return "Inativa";
}

/**
 * Issue 22 (9): numbers in server-made texts (in-app notifications and their web push, built from the
 * same stored message) follow the reader's language: pt and es use a decimal comma, en a point; a
 * broker price keeps its own decimals (USD/JPY 158.138 has 3, EUR/USD 1.08500 has 5).
 */
import { describe, expect, it } from "vitest";
import { msg } from "../../../core/i18n/message";
import { formatDecimal } from "../../../core/i18n/formatters";
import { translateMsg } from "../../../app/i18n";
import { notices } from "../../../app/lib/notifications";
import { buildPushPayload } from "../../../app/lib/push";

/** The push a device shows for a notice, as push.server.ts builds it (title and body in the user's language). */
function pushOf(n: { title: Parameters<typeof translateMsg>[0]; message: Parameters<typeof translateMsg>[0] }, language: string) {
  return buildPushPayload({
    notificationId: "00000000-0000-0000-0000-000000000001",
    type: "trading",
    topic: "trades",
    title: translateMsg(n.title, language),
    body: translateMsg(n.message, language),
    actionLabels: { stop_entries: "", pause: "", close_all: "" },
    tokens: {},
    texts: { done: "", failed: "" },
    timestamp: 0,
  } as Parameters<typeof buildPushPayload>[0]);
}

describe("trade notices in the reader's number notation", () => {
  const opened = notices.tradeOpened({ side: "buy", instrument: "USD_JPY", lots: 5, price: "158.138" });

  it("'Trade aberto': pt 5,00 lote(s) a 158,138; en 5.00 lot(s) at 158.138; es 5,00 lote(s) a 158,138", () => {
    expect(translateMsg(opened.message, "pt")).toBe("Compra USD/JPY · 5,00 lote(s) a 158,138");
    expect(translateMsg(opened.message, "en")).toBe("Buy USD/JPY · 5.00 lot(s) at 158.138");
    expect(translateMsg(opened.message, "es")).toBe("Compra USD/JPY · 5,00 lote(s) a 158,138");
  });

  it("the push body is the same localized text", () => {
    expect(pushOf(opened, "pt").body).toBe("Compra USD/JPY · 5,00 lote(s) a 158,138");
    expect(pushOf(opened, "en").body).toBe("Buy USD/JPY · 5.00 lot(s) at 158.138");
    expect(pushOf(opened, "es").body).toBe("Compra USD/JPY · 5,00 lote(s) a 158,138");
  });

  it("a 5-decimal price keeps its trailing zeros", () => {
    const m = notices.tradeOpened({ side: "sell", instrument: "EUR_USD", lots: 0.1, price: "1.08500" }).message;
    expect(translateMsg(m, "pt")).toBe("Venda EUR/USD · 0,10 lote(s) a 1,08500");
    expect(translateMsg(m, "en")).toBe("Sell EUR/USD · 0.10 lot(s) at 1.08500");
  });

  it("rows stored before the fix (lots and price as English text) read localized too", () => {
    const old = msg("notices:tradeOpened.message", { side: msg("notices:side.buy"), instrument: "USD/JPY", lots: "5.00", price: "158.138" });
    expect(translateMsg(old, "pt")).toBe("Compra USD/JPY · 5,00 lote(s) a 158,138");
    expect(translateMsg(old, "en")).toBe("Buy USD/JPY · 5.00 lot(s) at 158.138");
  });

  it("'Trade fechado': the signed P&L with 2 decimals and grouping per language", () => {
    const win = notices.tradeClosed({ result: "WIN", side: "sell", instrument: "GBP_USD", closeReason: "TAKE_PROFIT_ORDER", pl: 1234.5, currency: "USD" });
    expect(translateMsg(win.message, "pt")).toBe("Venda GBP/USD fechada por take profit: P&L +1.234,50 USD");
    expect(translateMsg(win.message, "en")).toBe("Sell GBP/USD closed by take profit: P&L +1,234.50 USD");
    expect(pushOf(win, "es").body).toBe("Venta GBP/USD cerrada por take profit: P&L +1234,50 USD");
    const loss = notices.tradeClosed({ result: "LOSS", side: "buy", instrument: "EUR_USD", pl: -12.3, currency: "EUR" });
    expect(translateMsg(loss.message, "pt")).toBe("Compra EUR/USD fechada: P&L -12,30 EUR");
    expect(translateMsg(loss.message, "en")).toBe("Buy EUR/USD closed: P&L -12.30 EUR");
    const be = notices.tradeClosed({ result: "BE", side: "buy", instrument: "EUR_USD", pl: 0, currency: null });
    expect(translateMsg(be.message, "es")).toBe("Compra EUR/USD cerrada: P&L 0,00");
  });
});

describe("the `decimal` format", () => {
  it("keeps the written decimals and passes non-numbers through", () => {
    expect(formatDecimal("158.138", "pt")).toBe("158,138");
    expect(formatDecimal("1.08500", "es")).toBe("1,08500");
    expect(formatDecimal(2, "pt")).toBe("2");
    expect(formatDecimal("n/a", "pt")).toBe("n/a");
  });
});

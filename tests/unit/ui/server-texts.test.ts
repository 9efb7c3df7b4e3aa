/**
 * Server-made texts of the bot loop and notifications (ADR 0007): the `notices` and `bot` catalogs
 * have the same keys in pt, en and es; the notification builders render the exact Portuguese texts
 * the product always stored, and the same messages read in English and Spanish.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { msg } from "../../../core/i18n/message";
import { translateMsg } from "../../../app/i18n";
import { notices, parseListQuery } from "../../../app/lib/notifications";

const LOCALES = join(__dirname, "../../../app/i18n/locales");
const catalog = (lang: string, ns: string) => JSON.parse(readFileSync(join(LOCALES, lang, `${ns}.json`), "utf8")) as Record<string, unknown>;

/** Every leaf key path of a catalog, sorted, each with the {{params}} its text uses. */
function leaves(obj: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(obj)
    .flatMap(([k, v]) => (typeof v === "object" && v !== null ? leaves(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`]))
    .sort();
}
function params(obj: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const key of leaves(obj)) {
    const text = key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], obj) as string;
    out[key] = [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!).sort();
  }
  return out;
}

describe("notices and bot catalogs", () => {
  for (const ns of ["notices", "bot"]) {
    it(`${ns}: en and es have exactly the pt keys, with the same parameters and no empty text`, () => {
      const pt = catalog("pt", ns);
      for (const lang of ["en", "es"]) {
        const other = catalog(lang, ns);
        expect(leaves(other), `${lang}/${ns}.json`).toEqual(leaves(pt));
        expect(params(other), `${lang}/${ns}.json`).toEqual(params(pt));
        for (const key of leaves(other)) expect(translateMsg(msg(`${ns}:${key}`), lang).trim(), key).not.toBe("");
      }
    });
  }
});

const pt = (m: Parameters<typeof translateMsg>[0]) => translateMsg(m, "pt");

describe("notification texts", () => {
  it("render the Portuguese texts (numbers in Portuguese notation, issue 22)", () => {
    const opened = notices.tradeOpened({ side: "buy", instrument: "EUR_USD", lots: 0.1, price: "1.08500" });
    expect(pt(opened.title)).toBe("Trade aberto");
    expect(pt(opened.message)).toBe("Compra EUR/USD · 0,10 lote(s) a 1,08500");

    const win = notices.tradeClosed({ result: "WIN", side: "sell", instrument: "GBP_USD", closeReason: "TAKE_PROFIT_ORDER", pl: 12.3, currency: "USD" });
    expect(pt(win.title)).toBe("Trade fechado com lucro");
    expect(pt(win.message)).toBe("Venda GBP/USD fechada por take profit: P&L +12,30 USD");
    const loss = notices.tradeClosed({ result: "LOSS", side: "buy", instrument: "EUR_USD", closeReason: "MARKET_ORDER_TRADE_CLOSE", pl: -3, currency: "USD" });
    expect(pt(loss.title)).toBe("Trade fechado com prejuízo");
    expect(pt(loss.message)).toBe("Compra EUR/USD fechada por fechamento manual: P&L -3,00 USD");
    const be = notices.tradeClosed({ result: "BE", side: "buy", instrument: "EUR_USD", closeReason: "LINKED_TRADE_CLOSED", pl: 0 });
    expect(pt(be.title)).toBe("Trade fechado no zero a zero");
    expect(pt(be.message)).toBe("Compra EUR/USD fechada: P&L 0,00");

    const tf = notices.timeframeChanged({ instrument: "USD_JPY", from: "M15", to: "H1", reason: "Volatilidade baixa, tendência forte" });
    expect(pt(tf.title)).toBe("IA mudou o timeframe");
    expect(pt(tf.message)).toBe("USD/JPY: M15 → H1. Volatilidade baixa, tendência forte");

    const stoppedLabelled = notices.botStopped(msg("bot:stopReason.daily_loss_limit"), "Limite diário de perdas atingido");
    expect(pt(stoppedLabelled.title)).toBe("IA desativada");
    expect(pt(stoppedLabelled.message)).toBe("Parado por limite diário de perdas. Limite diário de perdas atingido");
    expect(pt(notices.botStopped(null, msg("bot:stopDetail.licence")).message)).toBe("Licença necessária: a IA foi desativada.");
    expect(pt(notices.botStopped(null, msg("bot:stopDetail.noBroker")).message)).toBe("Nenhuma conta Oanda conectada: a IA foi desativada.");

    const lost = notices.connectionLost("Token inválido ou expirado. Verifique seu token.");
    expect(pt(lost.title)).toBe("Conexão com a Oanda perdida");
    expect(pt(lost.message)).toBe("Token inválido ou expirado. Verifique seu token.");
    const restored = notices.connectionRestored();
    expect([pt(restored.title), pt(restored.message)]).toEqual(["Conexão restabelecida", "A conexão com a Oanda foi restabelecida."]);
    const connected = notices.brokerConnected("Primary", "live");
    expect([pt(connected.title), pt(connected.message)]).toEqual(["Conta Oanda conectada", "Conta Primary (real) conectada."]);
    const test = notices.test();
    expect([pt(test.title), pt(test.message)]).toEqual(["Notificação de teste", "Se você está vendo esta mensagem, as notificações estão funcionando."]);
  });

  it("read in English and Spanish, nested messages included", () => {
    const win = notices.tradeClosed({ result: "WIN", side: "sell", instrument: "GBP_USD", closeReason: "STOP_LOSS_ORDER", pl: 1, currency: "USD" });
    expect(translateMsg(win.title, "en")).toBe("Trade closed in profit");
    expect(translateMsg(win.message, "en")).toBe("Sell GBP/USD closed by stop loss: P&L +1.00 USD");
    expect(translateMsg(win.message, "es")).toBe("Venta GBP/USD cerrada por stop loss: P&L +1,00 USD");
    const stopped = notices.botStopped(msg("bot:stopReason.manual"), msg("bot:stopDetail.licence"));
    expect(translateMsg(stopped.message, "en")).toBe("Stopped manually. Licence required: the AI was turned off.");
    expect(translateMsg(stopped.message, "es")).toBe("Detenido manualmente. Licencia necesaria: la IA se desactivó.");
    expect(translateMsg(notices.test().title, "es")).toBe("Notificación de prueba");
  });

  it("the list query's errors keep their Portuguese text and translate", () => {
    const bad = parseListQuery(new URLSearchParams("limit=101"));
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.message).toBe("limit deve ser um número inteiro entre 1 e 100.");
    expect(pt(bad.msg)).toBe(bad.message);
    expect(translateMsg(bad.msg, "en")).toBe("limit must be an integer between 1 and 100.");
    for (const qs of ["page=0", "type=urgent", "unread=talvez", `q=${"x".repeat(101)}`]) {
      const r = parseListQuery(new URLSearchParams(qs));
      expect(r.ok, qs).toBe(false);
      if (!r.ok) expect(pt(r.msg), qs).toBe(r.message);
    }
  });
});

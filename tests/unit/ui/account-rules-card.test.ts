/**
 * 'Regras da sua conta' (issue 22, broker-rule check) rendered on the server: the account type, the
 * currency and what the AI will and will not do, in the reader's language; before any check the card
 * says the rules come after the first check with the broker.
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { accountRules } from "../../../core/broker/account-rules";
import { defaultSettings } from "../../../core/settings";
import { i18nFor, type Language } from "../../../app/i18n";
import { AccountRulesCard } from "../../../app/components/account-rules-card";
import { rulesView, type StoredAccountRules } from "../../../app/services/trading/broker-rules.server";

const stored: StoredAccountRules = {
  ...accountRules({
    summary: { currency: "USD", balance: "10000", hedgingEnabled: false },
    instruments: [
      { name: "EUR_USD", minimumTradeSize: "100000", marginRate: "0.0333" },
      { name: "GBP_USD", minimumTradeSize: "1", marginRate: "0.0333" },
    ],
    settings: { ...defaultSettings(), instruments: ["EUR_USD", "GBP_USD"] },
    prices: [
      { instrument: "EUR_USD", bid: "1.08490", ask: "1.08510" },
      { instrument: "GBP_USD", bid: "1.26490", ask: "1.26510" },
    ],
  }),
  environment: "practice",
  accountId: "101-004-1-001",
};
const render = (language: Language, withRules = true) =>
  renderToString(createElement(I18nextProvider, { i18n: i18nFor(language) }, createElement(AccountRulesCard, { rules: withRules ? rulesView(stored, new Date(), language) : null })))
    .replace(/<!-- -->/g, "")
    .replace(/&#x27;/g, "'");

describe("AccountRulesCard", () => {
  it("shows the FIFO account, its currency and the pair the AI skips, in pt", () => {
    const html = render("pt");
    expect(html).toContain("Regras da sua conta");
    expect(html).toContain("FIFO (sem hedge)");
    expect(html).toContain("A IA não fará");
    expect(html).toContain("EUR_USD: a IA não opera este par — o tamanho mínimo da corretora (100000 unidades)");
    expect(html).toContain("GBP_USD: a IA opera até");
  });

  it("speaks en and es", () => {
    expect(render("en")).toContain("Your account&#x27;s rules".replace("&#x27;", "'"));
    expect(render("en")).toContain("EUR_USD: the AI does not trade this pair");
    expect(render("es")).toContain("Reglas de su cuenta");
    expect(render("es")).toContain("EUR_USD: la IA no opera este par");
  });

  it("before the first check says when the rules will appear", () => {
    expect(render("pt", false)).toContain("As regras da conta aparecem depois da primeira verificação com a corretora.");
  });
});

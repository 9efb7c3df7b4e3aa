/**
 * The server's memo of plain lookups (issue 24, app/i18n `memoisePlainLookups`): a screen's `t(key)` answers
 * what i18next answers, in the instance's language and the fixed namespace, and a repeated plain lookup no
 * longer runs i18next's translator; lookups with values still interpolate each time.
 */
import { describe, expect, it, vi } from "vitest";
import type { i18n } from "i18next";
import { i18nFor } from "../../../app/i18n";

/** i18next's translator (not in its public types): what every lookup not memoised runs. */
const translatorOf = (inst: i18n) => (inst as unknown as { translator: { translate: (...args: unknown[]) => unknown } }).translator;

describe("plain lookups on the server", () => {
  it("answer i18next's text per language and namespace, the repeat without the translator", () => {
    const pt = i18nFor("pt");
    const translate = vi.spyOn(translatorOf(pt), "translate");
    const t = pt.getFixedT(null, "history");
    expect(t("cols.lots")).toBe("Lotes");
    const calls = translate.mock.calls.length;
    expect(calls).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) expect(t("cols.lots")).toBe("Lotes");
    expect(translate.mock.calls.length).toBe(calls);
    // The same key in another namespace, language or key prefix is its own entry.
    expect(pt.getFixedT(null, "history")("title")).toBe("Histórico de Trades");
    expect(pt.getFixedT(null, "history", "cols")("exit")).toBe("Saída");
    expect(i18nFor("en").getFixedT(null, "history")("cols.lots")).toBe("Lots");
    expect(pt.t("history:cols.entry")).toBe("Entrada");
    translate.mockRestore();
  });

  it("lookups with values interpolate each call", () => {
    const t = i18nFor("pt").getFixedT(null, "history");
    expect(t("stats.winRateHint", { wins: 1, total: 2 })).toBe("1 de 2");
    expect(t("stats.winRateHint", { wins: 3, total: 4 })).toBe("3 de 4");
  });
});

describe("lookups with values on the server", () => {
  it("a plural count picks its form each time, and a repeat skips the translator", () => {
    const pt = i18nFor("pt");
    const t = pt.getFixedT(null, "notifications");
    expect(t("bellUnread", { count: 1 })).toBe("Notificações (1 não lida)");
    expect(t("bellUnread", { count: 3 })).toBe("Notificações (3 não lidas)");
    const translate = vi.spyOn(translatorOf(pt), "translate");
    expect(t("bellUnread", { count: 3 })).toBe("Notificações (3 não lidas)");
    expect(translate).not.toHaveBeenCalled();
    translate.mockRestore();
  });

  it("a string value and the number it spells are different lookups; an object value is never memoised", () => {
    const t = i18nFor("pt").getFixedT(null, "history");
    expect(t("stats.winRateHint", { wins: "1", total: 2 })).toBe("1 de 2");
    expect(t("stats.winRateHint", { wins: 1, total: "2\u0000x" })).toBe("1 de 2\u0000x");
    const wins = { toString: () => "7" };
    expect(t("stats.winRateHint", { wins, total: 9 })).toBe("7 de 9");
    wins.toString = () => "8";
    expect(t("stats.winRateHint", { wins, total: 9 })).toBe("8 de 9");
  });
});

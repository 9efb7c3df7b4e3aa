/**
 * Translatable validation messages (core/i18n/zod-message.ts, ADR 0007): a schema's message is the
 * Portuguese text PRODUCT.md §5/§8 expects (byte-identical, pt numbers like "0,5"), decoded back into
 * its message and rendered in pt, en and es at the edges; and the catalogs of the api, settings,
 * wizard, broker and validation namespaces have the same keys and placeholders in the three languages.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { renderMsg } from "../../../core/i18n";
import { msg } from "../../../core/i18n/message";
import { decodeIssueMessage, issueMsg, registeredIssueMessages, translateIssue, zMsg } from "../../../core/i18n/zod-message";
import { DEFAULT_SETTINGS, parseSettingsUpdate } from "../../../core/settings";
import { i18nFor, translateMsg } from "../../../app/i18n";
import { settingsFormSchema } from "../../../app/lib/settings-form";
import { loginSchema, registerSchema, testTokenSchema } from "../../../app/lib/validation";

const LANGS = ["pt", "en", "es"] as const;

/** The first issue text of a failed settings update (what the API and the action start from). */
function settingsError(body: unknown): string {
  const r = parseSettingsUpdate(body, structuredClone(DEFAULT_SETTINGS) as never);
  if (r.ok) throw new Error("deveria falhar");
  return r.message;
}

describe("zMsg / decodeIssueMessage", () => {
  it("the schema keeps the Portuguese text; decoding gives the message back", () => {
    const text = settingsError({ maxTrades: 25 });
    expect(text).toBe("maxTrades deve estar entre 1 e 20");
    expect(decodeIssueMessage(text)).toEqual({ key: "validation:number.range", params: { name: "maxTrades", min: 1, max: 20 } });
    expect(issueMsg({ message: text }, "x")).toEqual(decodeIssueMessage(text));
    expect(issueMsg(undefined, msg("api:invalidData"))).toEqual({ key: "api:invalidData" });
  });

  it.each([
    [{ maxTrades: 25 }, "maxTrades deve estar entre 1 e 20", "maxTrades must be between 1 and 20", "maxTrades debe estar entre 1 y 20"],
    [{ fixedLot: 0 }, "fixedLot deve estar entre 0,01 e 100", "fixedLot must be between 0.01 and 100", "fixedLot debe estar entre 0,01 y 100"],
    [{ dailyLossLimitPct: 1.2 }, "dailyLossLimitPct deve variar em passos de 0,5", "dailyLossLimitPct must change in steps of 0.5", "dailyLossLimitPct debe variar en pasos de 0,5"],
    [{ tpRatio: 5.5 }, "tpRatio deve estar entre 0,5 e 5", "tpRatio must be between 0.5 and 5", "tpRatio debe estar entre 0,5 y 5"],
    [{ aiSettings: { cooldownSec: 3605 } }, "cooldownSec deve estar entre 0 e 3600", "cooldownSec must be between 0 and 3600", "cooldownSec debe estar entre 0 y 3600"],
    [{ maxTrades: 2.5 }, "maxTrades deve ser um número inteiro", "maxTrades must be a whole number", "maxTrades debe ser un número entero"],
    [{ maxTrades: "abc" }, "maxTrades deve ser um número", "maxTrades must be a number", "maxTrades debe ser un número"],
    [{ timeframe: "H4" }, "timeframe deve ser um de M5, M15, M30, H1", "timeframe must be one of M5, M15, M30, H1", "timeframe debe ser uno de M5, M15, M30, H1"],
    ["x", "Corpo inválido: esperado um objeto com as configurações", "Invalid body: expected an object with the settings", "Cuerpo inválido: se esperaba un objeto con la configuración"],
  ])("%j → pt / en / es", (body, pt, en, es) => {
    const text = settingsError(body);
    expect(text).toBe(pt);
    const m = decodeIssueMessage(text);
    // App instance (API, pages) and core instance (logs, CLI) agree.
    expect([translateMsg(m, "pt"), translateMsg(m, "en"), translateMsg(m, "es")]).toEqual([pt, en, es]);
    expect([renderMsg(m, "pt"), renderMsg(m, "en"), renderMsg(m, "es")]).toEqual([pt, en, es]);
  });

  it("the /settings form (browser and action) shows the message in the user's language with t", () => {
    const f = new FormData();
    f.set("maxTrades", "25");
    const r = parseWithZod(f, { schema: settingsFormSchema, disableAutoCoercion: true });
    expect(r.status).toBe("error");
    const text = (r.status === "error" && r.error?.maxTrades?.[0]) || "";
    expect(text).toBe("maxTrades deve estar entre 1 e 20");
    const t = (lng: string) => i18nFor(lng).getFixedT(null, "settings");
    expect(translateIssue(t("pt"), text)).toBe("maxTrades deve estar entre 1 e 20");
    expect(translateIssue(t("en"), text)).toBe("maxTrades must be between 1 and 20");
    expect(translateIssue(t("es"), text)).toBe("maxTrades debe estar entre 1 y 20");
    f.set("maxTrades", "3");
    f.set("preferences.language", "fr");
    const lang = parseWithZod(f, { schema: settingsFormSchema, disableAutoCoercion: true });
    const langText = (lang.status === "error" && lang.error?.["preferences.language"]?.[0]) || "";
    expect(langText).toBe("language deve ser pt, en ou es");
    expect(translateIssue(t("en"), langText)).toBe("language must be pt, en or es");
  });

  it("account and broker schemas: Portuguese of PRODUCT.md §5/§8, English and Spanish", () => {
    const first = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message ?? "";
    const weak = first(registerSchema.safeParse({ firstName: "A", lastName: "B", email: "a@b.com", password: "fraca" }));
    expect(weak).toBe("A senha deve ter pelo menos 8 caracteres.");
    expect(translateMsg(decodeIssueMessage(weak), "en")).toBe("The password must have at least 8 characters.");
    expect(translateMsg(decodeIssueMessage(weak), "es")).toBe("La contraseña debe tener al menos 8 caracteres.");
    const email = first(loginSchema.safeParse({ email: "nope", password: "x" }));
    expect(email).toBe("E-mail inválido.");
    expect(translateMsg(decodeIssueMessage(email), "en")).toBe("Invalid e-mail.");
    const token = first(testTokenSchema.safeParse({ token: "  " }));
    expect(token).toBe("Por favor, insira seu token da Oanda");
    expect(translateMsg(decodeIssueMessage(token), "en")).toBe("Please enter your Oanda token");
    expect(translateMsg(decodeIssueMessage(token), "es")).toBe("Por favor, introduce tu token de Oanda");
    const env = first(testTokenSchema.safeParse({ token: "x", environment: "demo" }));
    expect(env).toBe("Ambiente inválido: use practice ou live.");
  });

  it("every registered message renders in pt as its own text and has en/es translations", () => {
    const all = [...registeredIssueMessages()];
    expect(all.length).toBeGreaterThan(30);
    for (const [text, m] of all) {
      expect(translateMsg(m, "pt"), m.key).toBe(text);
      for (const lng of ["en", "es"]) {
        const out = translateMsg(m, lng);
        expect(out, `${m.key} (${lng})`).not.toBe(text);
        expect(out).not.toContain("{{");
        expect(out).not.toContain(m.key);
      }
    }
  });

  it("other texts (zod defaults) pass through; two messages with the same text are refused", () => {
    expect(decodeIssueMessage("Invalid input")).toBe("Invalid input");
    expect(translateIssue(i18nFor("en").t, "Invalid input")).toBe("Invalid input");
    expect(zMsg("validation:number.type", { name: "campoX" })).toBe("campoX deve ser um número");
    expect(zMsg("validation:number.type", { name: "campoX" })).toBe("campoX deve ser um número");
    expect(() => zMsg("validation:number.type", { name: 7 })).not.toThrow();
    expect(() => zMsg("validation:number.type", { name: "7" })).toThrow(/já é o texto/);
  });
});

describe("API messages (namespace api)", () => {
  it("renders the Portuguese texts of PRODUCT.md §8 and their translations", () => {
    expect(translateMsg(msg("api:auth.sessionExpired"), "pt")).toBe("Token inválido ou expirado");
    expect(translateMsg(msg("api:broker.notConnected"), "pt")).toBe("Nenhuma conta Oanda conectada.");
    expect(translateMsg(msg("api:broker.notConnected"), "en")).toBe("No Oanda account connected.");
    expect(translateMsg(msg("api:email.cooldown", { seconds: 42 }), "es")).toBe("Espera 42 segundos para solicitar un nuevo correo.");
    const cancelled = msg("api:trades.closeCancelled", { reason: msg("api:trades.unknownReason") });
    expect(translateMsg(cancelled, "pt")).toBe("Fechamento cancelado pela corretora (motivo desconhecido).");
    expect(translateMsg(cancelled, "en")).toBe("Close cancelled by the broker (unknown reason).");
  });
});

/** Flattened `key → placeholders` of a catalog. */
function flatten(obj: Record<string, unknown>, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object") for (const [kk, vv] of flatten(v as Record<string, unknown>, key)) out.set(kk, vv);
    else
      out.set(
        key,
        [...String(v).matchAll(/\{\{\s*(\w+)/g)]
          .map((m) => m[1])
          .sort()
          .join(","),
      );
  }
  return out;
}

describe("catalog parity pt / en / es", () => {
  it.each(["api", "settings", "wizard", "broker", "validation"])("namespace %s: same keys and placeholders", (ns) => {
    const bundles = LANGS.map((lng) => i18nFor(lng).getResourceBundle(lng, ns) as Record<string, unknown> | undefined);
    for (const b of bundles) expect(b, ns).toBeTruthy();
    const [pt, en, es] = bundles.map((b) => flatten(b!));
    expect(pt!.size).toBeGreaterThan(0);
    expect([...en!.keys()].sort()).toEqual([...pt!.keys()].sort());
    expect([...es!.keys()].sort()).toEqual([...pt!.keys()].sort());
    for (const [key, vars] of pt!) {
      expect(en!.get(key), `${ns}:${key} (en)`).toBe(vars);
      expect(es!.get(key), `${ns}:${key} (es)`).toBe(vars);
    }
  });
});

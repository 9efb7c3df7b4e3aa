/**
 * PRODUCT.md §8 on the browser's API client (issue 22): a multi-path call tries its paths in order and
 * throws the last real error, or 'All endpoints unavailable' when no path exists (app/lib/api-multi.ts);
 * the broker wizard says 'Sua sessão expirou. Faça login novamente.' when the call carried no session and
 * 'Sessão inválida/expirada. Faça login novamente.' when the session was refused (app/lib/wizard-errors.ts).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { i18nFor } from "../../../app/i18n";
import { ApiCallError, errorMessage } from "../../../app/lib/api";
import { ALL_ENDPOINTS_UNAVAILABLE, apiFetchFirst } from "../../../app/lib/api-multi";
import { wizardErrorText } from "../../../app/lib/wizard-errors";

/** Stubs fetch with one answer per path: [status, JSON body] or "network" (the request fails). */
function answers(byPath: Record<string, [number, unknown] | "network">) {
  const calls: string[] = [];
  vi.stubGlobal("fetch", async (path: string) => {
    calls.push(path);
    const a = byPath[path];
    if (!a || a === "network") throw new TypeError("fetch failed");
    return new Response(JSON.stringify(a[1]), { status: a[0], headers: { "content-type": "application/json" } });
  });
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe("apiFetchFirst (§7 multi-path calls, §8)", () => {
  it("the first path that answers wins; the ones after it are not called", async () => {
    const calls = answers({ "/a": [503, { message: "Fora do ar" }], "/b": [200, { trades: [1] }], "/c": [200, { trades: [2] }] });
    await expect(apiFetchFirst(["/a", "/b", "/c"])).resolves.toEqual({ trades: [1] });
    expect(calls).toEqual(["/a", "/b"]);
  });

  it("every path failed: the last real error, its server message", async () => {
    answers({ "/a": [500, { message: "Erro A" }], "/b": [502, { message: "Erro B" }], "/c": [404, { message: "Não encontrado" }] });
    await expect(apiFetchFirst(["/a", "/b", "/c"])).rejects.toMatchObject({ message: "Erro B", status: 502 });
  });

  it("no path exists (404/405) or none given: 'All endpoints unavailable', in every language", async () => {
    answers({ "/a": [404, {}], "/b": [405, {}] });
    const err = await apiFetchFirst(["/a", "/b"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiCallError);
    expect((err as ApiCallError).message).toBe(ALL_ENDPOINTS_UNAVAILABLE);
    expect(errorMessage(err, "x", i18nFor("pt").t)).toBe("All endpoints unavailable");
    await expect(apiFetchFirst([])).rejects.toMatchObject({ message: "All endpoints unavailable" });
  });

  it("a refused session stops at once (the session is gone whatever the path)", async () => {
    const calls = answers({ "/a": [401, { message: "Token inválido ou expirado", session: "invalid" }], "/b": [200, {}] });
    await expect(apiFetchFirst(["/a", "/b"])).rejects.toMatchObject({ code: "unauthorized" });
    expect(calls[0]).toBe("/a");
    expect(calls).not.toContain("/b");
  });
});

describe("the broker wizard's session messages (§8 Broker wizard)", () => {
  const t = i18nFor("pt").getFixedT("pt", "wizard");

  it("no session at all → 'Sua sessão expirou. Faça login novamente.'", async () => {
    answers({ "/api/oanda-auth/test-token": [401, { message: "Token inválido ou expirado", session: "missing" }] });
    const err = await apiFetchFirst(["/api/oanda-auth/test-token"]).catch((e: unknown) => e);
    expect(wizardErrorText(err, "errors.validate", t)).toBe("Sua sessão expirou. Faça login novamente.");
  });

  it("a refused session → 'Sessão inválida/expirada. Faça login novamente.'; other failures: the server's message or the step's own", async () => {
    expect(wizardErrorText(new ApiCallError("Token inválido ou expirado", 401, "unauthorized", "invalid"), "errors.connect", t)).toBe("Sessão inválida/expirada. Faça login novamente.");
    expect(wizardErrorText(new ApiCallError("Esta conta Oanda já está conectada a outro usuário do Forex IA.", 409), "errors.connect", t)).toBe("Esta conta Oanda já está conectada a outro usuário do Forex IA.");
    expect(wizardErrorText(new Error(""), "errors.connect", t)).toBe("Erro ao conectar conta no servidor");
  });

  it("en and es have their own texts", () => {
    const err = new ApiCallError("x", 401, "unauthorized", "missing");
    expect(wizardErrorText(err, "errors.validate", i18nFor("en").getFixedT("en", "wizard"))).toBe("Your session has expired. Please log in again.");
    expect(wizardErrorText(err, "errors.validate", i18nFor("es").getFixedT("es", "wizard"))).toBe("Tu sesión expiró. Inicia sesión de nuevo.");
  });
});

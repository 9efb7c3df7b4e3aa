/**
 * The broker wizard's message for a failed test-token / connect call (PRODUCT.md §8 "Broker wizard"):
 * no session at all → 'Sua sessão expirou. Faça login novamente.' (wizard:errors.noSession); a refused
 * session (401) → 'Sessão inválida/expirada. Faça login novamente.' (wizard:errors.session); otherwise
 * the server's message, or `fallbackKey` ('Erro inesperado ao validar token…' / 'Erro ao conectar conta no servidor').
 */
import { ApiCallError, errorMessage } from "./api";

/** The text to show for `err`; `t` is the wizard namespace's translator (keys without namespace, `common:` ones with it). */
export function wizardErrorText(err: unknown, fallbackKey: "errors.validate" | "errors.connect", t: (key: string) => string): string {
  if (err instanceof ApiCallError && err.code === "unauthorized") return t(err.session === "missing" ? "errors.noSession" : "errors.session");
  return errorMessage(err, t(fallbackKey), t);
}

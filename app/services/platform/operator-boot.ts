/**
 * The operator identity's pure rules and its stored row, without the app's database pool or i18n: what
 * server/index.ts needs to refuse a production boot (issue 22 item 10) before the app is loaded.
 * app/services/platform/operator.server.ts builds the identity in force on top of it.
 */
import type postgres from "postgres";
import { OPERATOR_FIELDS } from "../../lib/operator-fields";
import type { Config } from "./config.server";
import { settingValue } from "../../../db/queries/system-settings";

export { OPERATOR_FIELDS, type OperatorField } from "../../lib/operator-fields";

/** Admin-stored operator identity (system_settings key 'operator'); OPERATOR_* / SUPPORT_EMAIL override it. */
export interface StoredOperator {
  company?: string;
  cnpj?: string;
  address?: string;
  dpoName?: string;
  dpoEmail?: string;
  supportEmail?: string;
}

/** What the legal pages print; null = not configured (the page shows the catalog's marked placeholder). */
export interface OperatorIdentity {
  company: string | null;
  cnpj: string | null;
  address: string | null;
  dpoName: string | null;
  dpoEmail: string | null;
  supportEmail: string | null;
}

/** The identity from the stored row and the environment (environment wins per field). */
export function mergeOperatorIdentity(stored: StoredOperator, env: Pick<Config, (typeof OPERATOR_FIELDS)[number]["env"]>): OperatorIdentity {
  const identity = {} as Record<keyof OperatorIdentity, string | null>;
  for (const f of OPERATOR_FIELDS) identity[f.stored] = env[f.env] || stored[f.stored] || null;
  return identity;
}

/** The environment variable names of the fields still unset (empty when the identity is complete). */
export function missingOperatorFields(identity: OperatorIdentity): string[] {
  return OPERATOR_FIELDS.filter((f) => !identity[f.stored]).map((f) => f.env);
}

/**
 * Why a production server must not start with this identity, or null when it may: the legal pages name
 * the operator and production never serves the "a definir" placeholders (issue 22 item 10).
 */
export function operatorBootError(identity: OperatorIdentity): string | null {
  const missing = missingOperatorFields(identity);
  if (!missing.length) return null;
  return (
    `Configuração inválida:\n  ${missing.join(", ")}: obrigatórios quando NODE_ENV=production (a identidade do operador nos Termos e na ` +
    `Política de Privacidade; sem eles as páginas mostrariam "a definir"). Defina as variáveis de ambiente, ou salve os campos em ` +
    `Admin → Configurações → Identidade do operador (com o servidor fora de produção, no mesmo banco).`
  );
}

/** The stored row ({} when none), read with `sql` (the boot check runs before the app's pool exists). */
export async function storedOperator(sql: postgres.Sql): Promise<StoredOperator> {
  return (await settingValue<StoredOperator | null>(sql, "operator")) ?? {};
}

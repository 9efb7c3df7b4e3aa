/**
 * The operator's public identity (issue 22 item 10): company, CNPJ, address, data protection officer
 * (LGPD "encarregado") and support e-mail, from the environment (OPERATOR_COMPANY, OPERATOR_CNPJ,
 * OPERATOR_ADDRESS, OPERATOR_DPO_NAME, OPERATOR_DPO_EMAIL, SUPPORT_EMAIL). Unset fields are null,
 * which only happens outside production: app/services/config.server.ts refuses to boot without them.
 */
import { config } from "./config.server";

/** What the legal pages print; null = not configured (the page shows the catalog's marked placeholder). */
export interface OperatorIdentity {
  company: string | null;
  cnpj: string | null;
  address: string | null;
  dpoName: string | null;
  dpoEmail: string | null;
  supportEmail: string | null;
}

/** The configured identity. */
export function operatorIdentity(): OperatorIdentity {
  const c = config();
  return {
    company: c.OPERATOR_COMPANY ?? null,
    cnpj: c.OPERATOR_CNPJ ?? null,
    address: c.OPERATOR_ADDRESS ?? null,
    dpoName: c.OPERATOR_DPO_NAME ?? null,
    dpoEmail: c.OPERATOR_DPO_EMAIL ?? null,
    supportEmail: c.SUPPORT_EMAIL ?? null,
  };
}

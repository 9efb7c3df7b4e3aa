/**
 * The operator's public identity (issue 22 item 10): company, CNPJ, address, data protection officer
 * (LGPD "encarregado") and support e-mail. Two sources, as the other system settings: what an admin
 * stored in Configurações (system_settings key 'operator'), overridden field by field by the
 * environment (OPERATOR_COMPANY, OPERATOR_CNPJ, OPERATOR_ADDRESS, OPERATOR_DPO_NAME,
 * OPERATOR_DPO_EMAIL, SUPPORT_EMAIL). A field set by neither is null, which only happens outside
 * production: server/index.ts refuses to boot a production server whose identity is incomplete.
 */
import { config } from "./config.server";
import { db } from "./db.server";
import { mergeOperatorIdentity, storedOperator, type OperatorIdentity } from "./operator-boot";

export { mergeOperatorIdentity, missingOperatorFields, operatorBootError, OPERATOR_FIELDS, type OperatorField, type OperatorIdentity, type StoredOperator } from "./operator-boot";

/** The identity in force (legal pages, e-mails). */
export async function operatorIdentity(): Promise<OperatorIdentity> {
  return mergeOperatorIdentity(await storedOperator(db()), config());
}

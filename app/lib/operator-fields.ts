/**
 * The operator identity's fields (issue 22 item 10): settings form/API field → stored field
 * (system_settings key 'operator') → the environment variable that overrides it. Shared by the admin
 * settings page (browser) and app/services/platform/operator.server.ts.
 */
export const OPERATOR_FIELDS = [
  { field: "operatorCompany", stored: "company", env: "OPERATOR_COMPANY" },
  { field: "operatorCnpj", stored: "cnpj", env: "OPERATOR_CNPJ" },
  { field: "operatorAddress", stored: "address", env: "OPERATOR_ADDRESS" },
  { field: "operatorDpoName", stored: "dpoName", env: "OPERATOR_DPO_NAME" },
  { field: "operatorDpoEmail", stored: "dpoEmail", env: "OPERATOR_DPO_EMAIL" },
  { field: "supportEmail", stored: "supportEmail", env: "SUPPORT_EMAIL" },
] as const;
export type OperatorField = (typeof OPERATOR_FIELDS)[number]["field"];


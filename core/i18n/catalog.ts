/**
 * The catalogs of the messages core produces, per language and namespace (engine, risk, broker,
 * validation). app/i18n merges them with the screen catalogs, so one i18next setup renders both.
 */
import enAdminUsers from "./locales/en/admin-users.json";
import enAdminPlans from "./locales/en/admin-plans.json";
import enAdminSettings from "./locales/en/admin-settings.json";
import esAdminUsers from "./locales/es/admin-users.json";
import esAdminPlans from "./locales/es/admin-plans.json";
import esAdminSettings from "./locales/es/admin-settings.json";
import ptAdminUsers from "./locales/pt/admin-users.json";
import ptAdminPlans from "./locales/pt/admin-plans.json";
import ptAdminSettings from "./locales/pt/admin-settings.json";
import enBroker from "./locales/en/broker.json";
import enEngine from "./locales/en/engine.json";
import enRisk from "./locales/en/risk.json";
import enValidation from "./locales/en/validation.json";
import enPreflight from "./locales/en/preflight.json";
import esBroker from "./locales/es/broker.json";
import esEngine from "./locales/es/engine.json";
import esRisk from "./locales/es/risk.json";
import esValidation from "./locales/es/validation.json";
import esPreflight from "./locales/es/preflight.json";
import ptBroker from "./locales/pt/broker.json";
import ptEngine from "./locales/pt/engine.json";
import ptRisk from "./locales/pt/risk.json";
import ptValidation from "./locales/pt/validation.json";
import ptPreflight from "./locales/pt/preflight.json";
import enBrokerRules from "./locales/en/broker-rules.json";
import esBrokerRules from "./locales/es/broker-rules.json";
import ptBrokerRules from "./locales/pt/broker-rules.json";

/** language → namespace → nested keys. */
export const CORE_RESOURCES: Record<string, Record<string, Record<string, unknown>>> = {
  pt: { engine: ptEngine, risk: ptRisk, broker: ptBroker, validation: ptValidation, preflight: ptPreflight, "admin-users": ptAdminUsers, "admin-plans": ptAdminPlans, "admin-settings": ptAdminSettings, "broker-rules": ptBrokerRules },
  en: { engine: enEngine, risk: enRisk, broker: enBroker, validation: enValidation, preflight: enPreflight, "admin-users": enAdminUsers, "admin-plans": enAdminPlans, "admin-settings": enAdminSettings, "broker-rules": enBrokerRules },
  es: { engine: esEngine, risk: esRisk, broker: esBroker, validation: esValidation, preflight: esPreflight, "admin-users": esAdminUsers, "admin-plans": esAdminPlans, "admin-settings": esAdminSettings, "broker-rules": esBrokerRules },
};

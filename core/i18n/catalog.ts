/**
 * The catalogs of the messages core produces, per language and namespace (engine, risk, broker,
 * validation). app/i18n merges them with the screen catalogs, so one i18next setup renders both.
 */
import enBroker from "./locales/en/broker.json";
import enEngine from "./locales/en/engine.json";
import enRisk from "./locales/en/risk.json";
import enValidation from "./locales/en/validation.json";
import esBroker from "./locales/es/broker.json";
import esEngine from "./locales/es/engine.json";
import esRisk from "./locales/es/risk.json";
import esValidation from "./locales/es/validation.json";
import ptBroker from "./locales/pt/broker.json";
import ptEngine from "./locales/pt/engine.json";
import ptRisk from "./locales/pt/risk.json";
import ptValidation from "./locales/pt/validation.json";

/** language → namespace → nested keys. */
export const CORE_RESOURCES: Record<string, Record<string, Record<string, unknown>>> = {
  pt: { engine: ptEngine, risk: ptRisk, broker: ptBroker, validation: ptValidation },
  en: { engine: enEngine, risk: enRisk, broker: enBroker, validation: enValidation },
  es: { engine: esEngine, risk: esRisk, broker: esBroker, validation: esValidation },
};

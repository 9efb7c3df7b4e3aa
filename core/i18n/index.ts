/**
 * Messages of core rendered without the app (backtest CLI, logs, the Portuguese text columns kept
 * next to each stored message). Portuguese by default (PRODUCT.md: the interface speaks Portuguese).
 */
import i18next, { type i18n } from "i18next";
import { CORE_RESOURCES } from "./catalog";
import { formatMsg, type Msg } from "./message";
import { addFormatters } from "./formatters";

export * from "./message";
export { CORE_RESOURCES } from "./catalog";

const instances = new Map<string, i18n>();

function instanceFor(language: string): i18n {
  const lng = language in CORE_RESOURCES ? language : "pt";
  let inst = instances.get(lng);
  if (!inst) {
    inst = i18next.createInstance();
    void inst.init({
      lng,
      fallbackLng: "pt",
      resources: CORE_RESOURCES,
      ns: Object.keys(CORE_RESOURCES.pt!),
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
    addFormatters(inst);
    instances.set(lng, inst);
  }
  return inst;
}

/** The text of a core message in a language (pt, en, es; anything else → pt). */
export function renderMsg(m: Msg | string, language = "pt"): string {
  const inst = instanceFor(language);
  return formatMsg((key, options) => inst.t(key, options) as string, m);
}

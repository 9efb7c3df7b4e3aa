/**
 * /settings save controls (PRODUCT.md §2 Settings, §4 Settings save): the page header with its title,
 * 'Recarregar' (a link to the page that, with JavaScript, re-reads the loader in place) and 'Salvar
 * Tudo' (desktop), the fixed 'Salvar' bar above the mobile tab bar, and the save outcome banner. The
 * save buttons sit outside the settings form and submit it through its id (`intent=save`).
 */
import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { Banner, Button, Spinner } from "~/components/ui";

/** The header: title, subtitle, Recarregar (`onReload`; a spinner while `reloading`) and the desktop save button of form `formId`. */
export function SettingsHeader({ formId, saving, reloading, onReload }: { formId: string; saving: boolean; reloading: boolean; onReload: (e: MouseEvent) => void }) {
  const { t } = useTranslation("settings");
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-2xl font-bold text-white">{t("title")}</h1>
        <p className="text-sm text-slate-400">{t("subtitle")}</p>
      </div>
      <div className="flex items-center gap-2">
        <a
          href="/settings"
          onClick={onReload}
          className="inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-white/10 px-4 py-2.5 text-sm font-semibold text-slate-100 hover:bg-white/15"
          data-testid="reload"
        >
          {reloading && <Spinner />}
          {t("reload")}
        </a>
        <div className="hidden md:block">
          <Button type="submit" form={formId} name="intent" value="save" loading={saving} data-testid="save-all">
            {saving ? t("saving") : t("saveAll")}
          </Button>
        </div>
      </div>
    </div>
  );
}

/** The outcome of a save: 'Configurações salvas' or the error with the action's message (in the user's language). */
export function SaveBanner({ ok, message, onClose }: { ok: boolean; message: string; onClose: () => void }) {
  const { t } = useTranslation("settings");
  return (
    <Banner tone={ok ? "success" : "error"} onClose={onClose}>
      <p className="font-semibold">{ok ? t("successTitle") : t("errorTitle")}</p>
      <p className="mt-0.5" data-testid="save-message">
        {ok ? t("successMessage") : t("errorMessage", { message })}
      </p>
    </Banner>
  );
}

/** The mobile save bar (hidden from md up), fixed above the tab bar, submitting form `formId`. */
export function MobileSaveBar({ formId, saving }: { formId: string; saving: boolean }) {
  const { t } = useTranslation("settings");
  return (
    <div className="fixed inset-x-0 bottom-16 z-20 border-t border-white/10 bg-slate-950/95 px-4 py-3 backdrop-blur md:hidden">
      <Button type="submit" form={formId} name="intent" value="save" loading={saving} className="w-full" data-testid="save-all-mobile">
        {saving ? t("saving") : t("saveAllMobile")}
      </Button>
    </div>
  );
}

/**
 * The hero's connection banners (PRODUCT.md §4 offline, §8 'Erro de conexão com o servidor'): offline,
 * or — online — the status polling's error with the local-data note and 'Tentar Novamente'.
 */
import { useTranslation } from "react-i18next";
import { Banner } from "~/components/ui";

/** The banners for `online` and the polling error (`pollError`); `onRetry` re-reads the status now. */
export function ConnectionBanners({ online, pollError, retrying, onRetry }: { online: boolean; pollError: string | null; retrying: boolean; onRetry: () => void }) {
  const { t } = useTranslation("hero");
  return (
    <>
      {!online && (
        <Banner tone="warning" className="mb-4">
          <span data-testid="offline-banner">{t("common:errors.offlineBanner")}</span>
        </Banner>
      )}
      {pollError && online && (
        <Banner tone="error" className="mb-4">
          <div className="flex flex-wrap items-center justify-between gap-3" role="group" aria-label={t("connection.title")}>
            <div>
              <p className="font-semibold">{t("connection.title")}</p>
              <p data-testid="poll-error">{pollError}</p>
              <p className="text-xs opacity-80" data-testid="local-data">
                {t("connection.localData")}
              </p>
            </div>
            <button
              type="button"
              className="rounded-lg border border-current px-3 py-1.5 text-sm font-semibold disabled:opacity-60"
              disabled={retrying}
              onClick={onRetry}
              data-testid="poll-retry"
            >
              {retrying ? t("connection.retrying") : t("connection.retry")}
            </button>
          </div>
        </Banner>
      )}
    </>
  );
}

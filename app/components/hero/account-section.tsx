/**
 * The hero's account cards (PRODUCT.md §2 Hero; issues 11 and 22): with a connected broker account the
 * balance at streamed prices (the open trades priced live, the page's 15 s refresh as the fallback)
 * with the stream's state and the display-currency notice, beside the connected-account card; without
 * one the 'Conta' card whose button connects (the wizard) or, without a licence, goes to /billing.
 */
import clsx from "clsx";
import { useTranslation } from "react-i18next";
import { BalanceCard, ConnectedAccountCard, type AccountView } from "~/components/account-cards";
import { DisplayRateNotice } from "~/components/display-amount";
import { PlugIcon } from "~/components/icons";
import { LiveStatus } from "~/components/live-status";
import { Card } from "~/components/ui";
import { liveAccount } from "~/lib/live-prices";
import type { useOpenTradesLive } from "~/lib/use-event-source";

/** The account cards; `account` is null without a connected account, `live` the open trades at streamed prices. */
export function AccountSection({
  account,
  live,
  hasValidLicense,
  brokerError,
  variant,
  onChanged,
  onConnect,
}: {
  account: AccountView | null;
  live: ReturnType<typeof useOpenTradesLive>;
  hasValidLicense: boolean;
  brokerError: string | null;
  variant: "mobile" | "desktop";
  /** After the account card changed something (the page re-reads). */
  onChanged: () => void;
  /** 'Conectar conta' pressed (the page opens the wizard, or /billing without a licence). */
  onConnect: () => void;
}) {
  if (!account) return <NoAccountCard onConnect={onConnect} />;
  return (
    <div className={clsx("grid gap-4", variant === "desktop" && "md:grid-cols-2 lg:grid-cols-1")}>
      <div>
        <BalanceCard account={liveAccount(account, live.trades, live.prices)} />
        <LiveStatus status={live.status} className="mt-1" />
        {hasValidLicense && <DisplayRateNotice className="mt-2" />}
      </div>
      <ConnectedAccountCard account={account} error={brokerError} onChanged={onChanged} />
    </div>
  );
}

/** 'Conta' without a connected account; its button runs `onConnect`. */
function NoAccountCard({ onConnect }: { onConnect: () => void }) {
  const { t } = useTranslation("hero");
  return (
    <Card title={t("common:account.title")}>
      <p className="text-slate-300">{t("common:account.none")}</p>
      <p className="mt-1 text-sm text-slate-400">{t("account.hint")}</p>
      <button
        type="button"
        onClick={onConnect}
        className="mt-4 inline-flex min-h-11 items-center gap-2 rounded-xl bg-orange-500 px-4 py-2 text-sm font-semibold text-slate-950 hover:bg-orange-400"
      >
        <PlugIcon size={16} /> {t("common:account.connect")}
      </button>
    </Card>
  );
}

/** Broker account cards shared by the hero and the dashboard: connected account (with disconnect) and balance figures. */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiFetch, errorMessage } from "~/lib/api";
import { toNumber } from "~/lib/format";
import { useDisplay } from "~/lib/hooks";
import { Converted } from "./display-amount";
import { PlugIcon, WalletIcon } from "./icons";
import { Badge, Banner, Button, Card, signTone, Stat } from "./ui";

/** The account part of `brokerStatus()` as the UI reads it. */
export interface AccountView {
  id: string;
  name: string;
  environment: string;
  currency: string;
  balance?: string | null;
  nav?: string | null;
  unrealizedPL?: string | null;
  marginUsed?: string | null;
  marginAvailable?: string | null;
  openTradeCount?: number | null;
}

/** Connected account: name, id, environment and a disconnect button (POST /api/oanda-auth/disconnect). */
export function ConnectedAccountCard({ account, error, onChanged }: { account: AccountView; error?: string | null; onChanged: () => void }) {
  const { t } = useTranslation("common");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  async function disconnect() {
    if (!window.confirm(t("account.disconnectConfirm"))) return;
    setBusy(true);
    setFailure(null);
    try {
      await apiFetch("/api/oanda-auth/disconnect", { method: "POST" });
      onChanged();
    } catch (err) {
      setFailure(errorMessage(err, t("account.disconnectError"), t));
      window.setTimeout(() => setFailure(null), 5000);
    } finally {
      setBusy(false);
    }
  }
  const live = account.environment === "live";
  return (
    <Card
      title={
        <span className="flex items-center gap-2">
          <PlugIcon size={16} /> {t("account.connected")}
        </span>
      }
      action={<Badge tone={live ? "amber" : "blue"}>{live ? t("account.live") : t("account.demo")}</Badge>}
      data-testid="account-card"
    >
      <p className="text-lg font-semibold text-white">{account.name}</p>
      <p className="font-mono text-xs text-slate-400">
        {account.id} · OANDA v20 · {account.currency || DEFAULT_CURRENCY}
      </p>
      {(account.openTradeCount ?? 0) > 0 && (
        <p className="mt-1 text-sm text-slate-300" data-testid="open-trade-count">
          {t("account.openTrades", { count: account.openTradeCount ?? 0 })}
        </p>
      )}
      {error && (
        <Banner tone="warning" className="mt-3">
          {error}
        </Banner>
      )}
      {failure && (
        <Banner tone="error" className="mt-3">
          {failure}
        </Banner>
      )}
      <Button variant="danger" className="mt-4 w-full" onClick={() => void disconnect()} loading={busy}>
        {t("account.disconnect")}
      </Button>
    </Card>
  );
}

/** Default balance and currency when the broker does not say (PRODUCT.md §9). */
export const DEFAULT_BALANCE = "0.0000";
export const DEFAULT_CURRENCY = "USD";

/** Balance card: balance, NAV and unrealized P&L (money in the user's locale with the account currency). */
export function BalanceCard({ account }: { account: AccountView }) {
  const { t } = useTranslation("common");
  const fmt = useDisplay();
  const upl = toNumber(account.unrealizedPL);
  const currency = account.currency || DEFAULT_CURRENCY;
  const balance = account.balance ?? DEFAULT_BALANCE;
  return (
    <Card
      title={
        <span className="flex items-center gap-2">
          <WalletIcon size={16} /> {t("account.balance")}
        </span>
      }
      data-testid="balance-card"
    >
      <p className="text-2xl font-bold tabular-nums text-white sm:text-3xl" data-testid="balance-value">
        {fmt.money(balance, currency)}
      </p>
      <Converted amount={balance} currency={currency} className="text-sm" />
      <div className="mt-3 grid grid-cols-2 gap-2">
        <Stat label={t("account.nav")} value={<>{fmt.money(account.nav ?? balance, currency)}<Converted amount={account.nav ?? balance} currency={currency} /></>} />
        <Stat
          label={t("account.unrealized")}
          value={<>{fmt.money(account.unrealizedPL ?? 0, currency, { signed: true })}<Converted amount={account.unrealizedPL ?? 0} currency={currency} signed /></>}
          tone={signTone(upl)}
        />
        {account.marginUsed !== undefined && <Stat label={t("account.marginUsed")} value={fmt.money(account.marginUsed, currency)} />}
        {account.marginAvailable !== undefined && <Stat label={t("account.marginAvailable")} value={fmt.money(account.marginAvailable, currency)} />}
      </div>
    </Card>
  );
}

/** Dashboard account card: name, environment, balance (default '0.0000' USD), unrealized P&L and the open-trade count only when above 0. */
export function AccountSummaryCard({ account }: { account: AccountView }) {
  const { t } = useTranslation("common");
  const fmt = useDisplay();
  const currency = account.currency || DEFAULT_CURRENCY;
  const live = account.environment === "live";
  const upl = toNumber(account.unrealizedPL);
  return (
    <Card
      title={
        <span className="flex items-center gap-2">
          <WalletIcon size={16} /> {t("account.title")}
        </span>
      }
      action={<Badge tone={live ? "amber" : "blue"}>{live ? t("account.live") : t("account.demo")}</Badge>}
      data-testid="balance-card"
    >
      <p className="truncate font-semibold text-slate-100">{account.name}</p>
      <p className="font-mono text-xs text-slate-400">{account.id}</p>
      <p className="mt-3 text-xs text-slate-400">{t("account.balance")}</p>
      <p className="text-2xl font-bold tabular-nums text-white sm:text-3xl" data-testid="balance-value">
        {fmt.money(account.balance ?? DEFAULT_BALANCE, currency)}
      </p>
      <Converted amount={account.balance ?? DEFAULT_BALANCE} currency={currency} className="text-sm" />
      <div className="mt-3 grid grid-cols-2 gap-2">
        <Stat
          label={t("account.nav")}
          value={<>{fmt.money(account.nav ?? account.balance ?? DEFAULT_BALANCE, currency)}<Converted amount={account.nav ?? account.balance ?? DEFAULT_BALANCE} currency={currency} /></>}
        />
        <Stat
          label={t("account.unrealized")}
          value={<>{fmt.money(account.unrealizedPL ?? 0, currency, { signed: true })}<Converted amount={account.unrealizedPL ?? 0} currency={currency} signed /></>}
          tone={signTone(upl)}
        />
      </div>
      {(account.openTradeCount ?? 0) > 0 && (
        <p className="mt-3 text-sm text-slate-300" data-testid="open-trade-count">
          {t("account.openTrades", { count: account.openTradeCount ?? 0 })}
        </p>
      )}
    </Card>
  );
}

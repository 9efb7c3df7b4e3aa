/** Broker account cards shared by the hero and the dashboard: connected account (with disconnect) and balance figures. */
import { useState } from "react";
import { apiFetch, errorMessage } from "~/lib/api";
import { formatMoney, toNumber } from "~/lib/format";
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
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  async function disconnect() {
    if (!window.confirm("Desconectar a conta Oanda? A IA será desativada.")) return;
    setBusy(true);
    setFailure(null);
    try {
      await apiFetch("/api/oanda-auth/disconnect", { method: "POST" });
      onChanged();
    } catch (err) {
      setFailure(errorMessage(err, "Falha ao desconectar a conta Oanda"));
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
          <PlugIcon size={16} /> Conta conectada
        </span>
      }
      action={<Badge tone={live ? "amber" : "blue"}>{live ? "Real" : "Demo"}</Badge>}
      data-testid="account-card"
    >
      <p className="text-lg font-semibold text-white">{account.name}</p>
      <p className="font-mono text-xs text-slate-400">
        {account.id} · OANDA v20 · {account.currency}
      </p>
      {(account.openTradeCount ?? 0) > 0 && <p className="mt-1 text-sm text-slate-300">{account.openTradeCount} operação(ões) aberta(s)</p>}
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
        Desconectar
      </Button>
    </Card>
  );
}

/** Balance card: balance, NAV and unrealized P&L (money in pt-BR with the account currency). */
export function BalanceCard({ account }: { account: AccountView }) {
  const upl = toNumber(account.unrealizedPL);
  return (
    <Card
      title={
        <span className="flex items-center gap-2">
          <WalletIcon size={16} /> Saldo da conta
        </span>
      }
      data-testid="balance-card"
    >
      <p className="text-2xl font-bold tabular-nums text-white sm:text-3xl" data-testid="balance-value">
        {formatMoney(account.balance ?? "0.0000", account.currency)}
      </p>
      <div className="mt-3 grid grid-cols-2 gap-2">
        <Stat label="NAV" value={formatMoney(account.nav ?? account.balance, account.currency)} />
        <Stat label="P&L não realizado" value={formatMoney(account.unrealizedPL ?? 0, account.currency, { signed: true })} tone={signTone(upl)} />
        {account.marginUsed !== undefined && <Stat label="Margem usada" value={formatMoney(account.marginUsed, account.currency)} />}
        {account.marginAvailable !== undefined && <Stat label="Margem disponível" value={formatMoney(account.marginAvailable, account.currency)} />}
      </div>
    </Card>
  );
}

/**
 * 'Regras da sua conta' (issue 22, broker-rule check): what the AI will and will not do on the
 * connected account — account type (FIFO or hedging), currency, and per pair whether it trades it —
 * as the last check stored it (at connect, then each sync window). The lines arrive rendered in the
 * user's language (broker-rules.server.ts rulesView); shown by /settings (server-rendered) and the
 * connect wizard's success.
 */
import { useTranslation } from "react-i18next";
import type { AccountRulesView } from "~/services/trading/broker-rules.server";
import { Card } from "./ui";

/** The rules' lists, without the card (the wizard shows them inside its own dialog). */
export function AccountRulesLists({ rules }: { rules: Pick<AccountRulesView, "mode" | "currency" | "will" | "wont"> }) {
  const { t } = useTranslation("broker-rules");
  return (
    <div className="space-y-3 text-sm" data-testid="account-rules">
      <dl className="grid grid-cols-2 gap-2">
        <div>
          <dt className="text-xs text-slate-400">{t("modeLabel")}</dt>
          <dd className="font-semibold text-white">{t(`mode.${rules.mode}`)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-400">{t("currencyLabel")}</dt>
          <dd className="font-semibold text-white">{rules.currency}</dd>
        </div>
      </dl>
      <div>
        <h3 className="text-xs font-semibold uppercase tracking-wider text-emerald-300">{t("will")}</h3>
        <ul className="mt-1 list-disc space-y-1 pl-5 text-slate-200">
          {rules.will.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
      {rules.wont.length > 0 && (
        <div>
          <h3 className="text-xs font-semibold uppercase tracking-wider text-amber-300">{t("wont")}</h3>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-amber-100" data-testid="account-rules-wont">
            {rules.wont.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** The card of /settings; says the rules come after the first check when there are none yet. */
export function AccountRulesCard({ rules }: { rules: AccountRulesView | null }) {
  const { t } = useTranslation("broker-rules");
  return (
    <Card title={t("title")} data-testid="account-rules-card">
      <p className="mb-3 text-xs text-slate-400">{t("subtitle")}</p>
      {rules ? <AccountRulesLists rules={rules} /> : <p className="text-sm text-slate-400">{t("empty")}</p>}
    </Card>
  );
}

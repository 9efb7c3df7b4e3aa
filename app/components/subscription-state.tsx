/**
 * The subscription's state as the user reads it (issue 22, app/lib/subscription-state.ts): the status line of
 * the dashboard's subscription card and the billing page's 'Cancelamento agendado para …' banner.
 */
import { useTranslation } from "react-i18next";
import { useDisplay } from "~/lib/hooks";
import type { SubscriptionState } from "~/lib/subscription-state";
import { Banner } from "./ui";

/** 'Ativa', 'Pagamento Pendente', 'Cancelada (acesso até <date>)', 'Licença manual', 'Teste grátis', 'Cancelada' or 'Inativa'. */
export function SubscriptionStateText({ state }: { state: SubscriptionState }) {
  const { t } = useTranslation("dashboard");
  const fmt = useDisplay();
  return <span data-testid="subscription-state">{t(`subscriptionCard.state.${state.key}`, { date: fmt.date(state.until) })}</span>;
}

/** 'Cancelamento agendado para <date>. Você mantém o acesso até lá.' while a cancellation is scheduled; nothing otherwise. */
export function ScheduledCancelBanner({ state }: { state: SubscriptionState }) {
  const { t } = useTranslation("billing");
  const fmt = useDisplay();
  if (!state.cancelScheduled) return null;
  return (
    <Banner tone="info">
      <span data-testid="cancel-scheduled">{t("page.cancelScheduled", { date: fmt.date(state.cancelScheduled) })}</span>
    </Banner>
  );
}

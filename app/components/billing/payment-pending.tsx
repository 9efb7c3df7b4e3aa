/**
 * /billing's 'Pagamento pendente' section (PRODUCT.md §4; issue 22 item 3): what a subscriber whose
 * payment did not go through does, without JavaScript too (native POSTs to the page action):
 * - 'Atualizar cartão no portal' (only with a Stripe customer): `intent=portal` in a new tab, which
 *   follows the action's 303 to Stripe's Billing Portal, where the card is fixed;
 * - 'Já paguei, validar agora': `intent=validate&stay=1`, which re-reads the subscription from Stripe
 *   and answers on this page (confirmed, or not yet).
 * For past_due / unpaid (`needsCardFix`) the text points at the card: a new plan is not the fix.
 */
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AlertIcon, ExternalIcon } from "~/components/icons";
import { Button } from "~/components/ui";

/** What the section needs. */
export interface PaymentPendingProps {
  /** The page action the forms post to (e.g. "/billing"). */
  action: string;
  /** The user has a Stripe customer: the Billing Portal can be opened. */
  canOpenPortal: boolean;
  /** past_due / unpaid: an existing subscription whose renewal is unpaid (the card is the fix). */
  cardFix: boolean;
  /** A 'Já paguei' POST is under way (JavaScript only). */
  validating?: boolean;
}

/** The 'Pagamento pendente' section: the portal to update the card and 'Já paguei, validar agora'. */
export function PaymentPendingSection({ action, canOpenPortal, cardFix, validating = false }: PaymentPendingProps) {
  const { t } = useTranslation("billing");
  return (
    <section className="rounded-2xl border border-amber-400/30 bg-amber-500/10 p-4 text-amber-100" aria-labelledby="pending-title" data-testid="payment-pending">
      <h2 id="pending-title" className="flex items-center gap-2 font-semibold text-amber-200">
        <AlertIcon size={18} /> {t("page.pendingTitle")}
      </h2>
      <p className="mt-1 text-sm">{cardFix ? t("page.pendingCardText") : t("page.pendingText")}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        {canOpenPortal && (
          <form method="post" action={action} target="_blank" rel="noopener">
            <input type="hidden" name="intent" value="portal" />
            <Button type="submit" data-testid="payment-pending-portal">
              {t("page.updateCard")} <ExternalIcon size={16} />
              <span className="sr-only">{t("common:opensInNewTab")}</span>
            </Button>
          </form>
        )}
        <Form method="post" action={action}>
          <input type="hidden" name="intent" value="validate" />
          <input type="hidden" name="stay" value="1" />
          <Button type="submit" variant="secondary" loading={validating} data-testid="payment-pending-validate">
            {t("alreadyPaid")}
          </Button>
        </Form>
      </div>
      {canOpenPortal && <p className="mt-2 text-xs text-amber-100/80">{t("page.updateCardHint")}</p>}
    </section>
  );
}

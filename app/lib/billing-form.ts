/**
 * The /billing page forms (PRODUCT.md §2 Subscription modal, §5 'Assinar agora' needs a plan and the
 * terms, §7 portal; issue 9), one zod schema per form, parsed by the page action (app/routes/billing.tsx):
 * subscribe from the modal (`planId` radio, `terms` checkbox, `js=1` when the fetcher posts it), 'Já
 * paguei, validar agora' (`stay=1` from the 'Pagamento pendente' section) and the Billing Portal
 * (`js=1`). A refused subscribe says what is missing: `subscribeIssueKey` names the `billing` catalog's
 * message of the first issue (plan first, then terms). Pure: safe on server and client.
 */
import { z } from "zod";

/** A flag field: on when it posts "1" (hidden inputs). */
const flag = z.unknown().optional().transform((v) => v === "1");

/** The modal's subscribe form: a chosen plan (blank refused) and the accepted terms (the checkbox posts "on"). */
export const subscribeFormSchema = z.object({ planId: z.string().trim().min(1), terms: z.literal("on"), js: flag });
/** 'Já paguei, validar agora': `stay` keeps the user on /billing after a confirmed payment (else /dashboard). */
export const validateFormSchema = z.object({ stay: flag });
/** 'Portal de Cobrança': `js` answers the portal URL as data instead of a 303. */
export const portalFormSchema = z.object({ js: flag });

/** The `billing` catalog key of a refused subscribe's first issue: 'Selecione um plano.' or 'Aceite os Termos de Uso…'. */
export function subscribeIssueKey(issue: { path: readonly PropertyKey[] } | undefined): "billing:errors.choosePlan" | "billing:errors.acceptTerms" {
  return issue?.path[0] === "terms" ? "billing:errors.acceptTerms" : "billing:errors.choosePlan";
}

/**
 * The Stripe simulator's hosted pages, plain HTML forms (usable by a person and by Playwright):
 * - `GET /checkout/:id`: the hosted checkout. `POST /checkout/:id/pay` (`card`, `email`) pays —
 *   4242 4242 4242 4242 → 303 to `success_url` (`{CHECKOUT_SESSION_ID}` filled in); 4000 0000 0000 0002
 *   → 402 with "Your card was declined." and nothing created; `GET /checkout/:id/cancel` → 303 to `cancel_url`.
 * - `GET /portal/:id`: the billing portal of a customer's subscriptions; `POST /portal/:id/cancel`
 *   and `/portal/:id/resume` (`subscription`) set or clear `cancel_at_period_end`; `POST /portal/:id/card`
 *   (`card`) replaces the card on file and charges open invoices again; a link returns to `return_url`.
 */
import express, { type Request, type Response, type Router } from "express";
import { StripeSimError } from "./errors";
import type { Obj, StripeStore } from "./store";

const esc = (s: unknown) => String(s ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
const date = (sec: number) => new Date(sec * 1000).toISOString().slice(0, 10);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.8rem 0}input{width:100%;padding:.5rem;font-size:1rem}button{padding:.6rem 1rem;font-size:1rem;margin-top:1rem}.error{color:#b00020}.box{border:1px solid #ccc;border-radius:6px;padding:1rem;margin:1rem 0}</style></head>
<body><p><strong>Stripe simulator</strong> — test mode</p>${body}</body></html>`;
}

function sendPage(res: Response, status: number, title: string, body: string): void {
  res.status(status).type("html").setHeader("Cache-Control", "no-store");
  res.send(page(title, body));
}

/** `here` is the page's own absolute path (`<mount>/checkout/<id>`): the form and link must not be relative, the page is also served from `…/pay`. */
function checkoutPage(store: StripeStore, session: Obj, here: string, error?: string): string {
  const items = store.sessionLineItems(session).data as { description: string; amount_total: number; currency: string; price: Obj }[];
  const rows = items.map((i) => `<li>${esc(i.description)} — ${esc(money(i.amount_total, i.currency))} / ${esc((i.price.recurring as { interval: string }).interval)}</li>`).join("");
  return `<h1>Subscribe</h1><ul>${rows}</ul>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ""}
<form method="post" action="${esc(here)}/pay">
<label>Email <input name="email" type="email" autocomplete="email" value="${esc(session.customer_email ?? "")}"></label>
<label>Card number <input name="card" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required></label>
<label>Expiry <input name="exp" placeholder="12 / 34"></label><label>CVC <input name="cvc" placeholder="123"></label>
<button type="submit">Subscribe</button></form>
<p><a href="${esc(here)}/cancel">Cancel and go back</a></p>`;
}

/** Router for `/checkout/*` and `/portal/*` (mount behind a urlencoded body parser). */
export function pagesRouter(store: StripeStore): Router {
  const r = express.Router();
  const session = (req: Request, res: Response): Obj | undefined => {
    const o = store.objects.get(String(req.params.id));
    if (o?.object === "checkout.session") return o;
    sendPage(res, 404, "Not found", "<h1>Checkout session not found</h1>");
    return undefined;
  };

  r.get("/checkout/:id", (req, res) => {
    const s = session(req, res);
    if (!s) return;
    if (s.status === "open" && store.nowSec() >= (s.expires_at as number)) s.status = "expired";
    if (s.status !== "open") return sendPage(res, 410, "Checkout", `<h1>This checkout session is ${esc(s.status)}.</h1>`);
    sendPage(res, 200, "Checkout", checkoutPage(store, s, `${req.baseUrl}/checkout/${s.id}`));
  });
  r.post("/checkout/:id/pay", (req, res) => {
    const s = session(req, res);
    if (!s) return;
    const body = (req.body ?? {}) as Record<string, string>;
    try {
      store.payCheckoutSession(s.id, String(body.card ?? ""), body.email || undefined);
      res.redirect(303, String(s.success_url).replace("{CHECKOUT_SESSION_ID}", s.id));
    } catch (err) {
      if (!(err instanceof StripeSimError)) throw err;
      if (s.status !== "open") return sendPage(res, 410, "Checkout", `<h1>${esc(err.message)}</h1>`);
      sendPage(res, err.status, "Checkout", checkoutPage(store, s, `${req.baseUrl}/checkout/${s.id}`, err.message));
    }
  });
  r.get("/checkout/:id/cancel", (req, res) => {
    const s = session(req, res);
    if (!s) return;
    if (s.cancel_url) res.redirect(303, String(s.cancel_url));
    else sendPage(res, 200, "Checkout", "<h1>Checkout cancelled</h1>");
  });

  const portal = (req: Request, res: Response): Obj | undefined => {
    const o = store.objects.get(String(req.params.id));
    if (o?.object === "billing_portal.session") return o;
    sendPage(res, 404, "Not found", "<h1>Portal session not found</h1>");
    return undefined;
  };
  r.get("/portal/:id", (req, res) => {
    const p = portal(req, res);
    if (!p) return;
    const subs = store.all("subscription").filter((s) => s.customer === p.customer && s.status !== "canceled");
    const rows = subs.map((s) => {
      const item = (s.items as { data: { price: Obj; current_period_end: number }[] }).data[0]!;
      const action = s.cancel_at_period_end ? "resume" : "cancel";
      return `<div class="box" data-subscription="${esc(s.id)}"><p>${esc(money(item.price.unit_amount as number, item.price.currency as string))} / ${esc((item.price.recurring as { interval: string }).interval)} — <span class="status">${esc(s.status)}</span></p>
<p>${s.cancel_at_period_end ? `Cancels on ${esc(date(item.current_period_end))}` : `Renews on ${esc(date(item.current_period_end))}`}</p>
<form method="post" action="${esc(p.id)}/${action}"><input type="hidden" name="subscription" value="${esc(s.id)}"><button type="submit">${action === "cancel" ? "Cancel subscription" : "Renew subscription"}</button></form></div>`;
    }).join("");
    const error = typeof req.query.error === "string" ? `<p class="error" role="alert">${esc(req.query.error)}</p>` : "";
    const card = `<form method="post" action="${esc(p.id)}/card"><label>New card number <input name="card" inputmode="numeric" autocomplete="cc-number" required></label><button type="submit">Update card</button></form>`;
    sendPage(res, 200, "Billing portal", `<h1>Billing portal</h1>${error}${rows || "<p>No active subscriptions.</p>"}${card}${p.return_url ? `<p><a href="${esc(p.return_url)}">Return</a></p>` : ""}`);
  });
  // A new card on file; open invoices are charged again at once (how a past_due subscription recovers).
  r.post("/portal/:id/card", (req, res) => {
    const p = portal(req, res);
    if (!p) return;
    const card = String((req.body as Record<string, string> | undefined)?.card ?? "").replace(/[\s-]/g, "");
    store.cards.set(p.customer as string, card);
    let error = "";
    for (const inv of store.all("invoice").filter((i) => i.customer === p.customer && i.status === "open")) {
      try {
        store.payInvoice(inv.id);
      } catch (err) {
        if (!(err instanceof StripeSimError)) throw err;
        error = err.message;
      }
    }
    res.redirect(303, `${req.baseUrl}/portal/${p.id}${error ? `?error=${encodeURIComponent(error)}` : ""}`);
  });
  for (const action of ["cancel", "resume"] as const) {
    r.post(`/portal/:id/${action}`, (req, res) => {
      const p = portal(req, res);
      if (!p) return;
      const subId = String((req.body as Record<string, string> | undefined)?.subscription ?? "");
      const sub = store.objects.get(subId);
      if (sub?.object !== "subscription" || sub.customer !== p.customer) return sendPage(res, 404, "Not found", "<h1>Subscription not found</h1>");
      store.updateSubscription(subId, { cancel_at_period_end: action === "cancel" ? "true" : "false" });
      res.redirect(303, `${req.baseUrl}/portal/${p.id}`);
    });
  }
  return r;
}

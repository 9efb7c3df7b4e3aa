/**
 * Webhook delivery of the Stripe simulator: each event POSTed as JSON to the webhook URL, signed like
 * Stripe (`Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.payload" with the secret>`), one at a
 * time in order, retried after `retryDelaysMs` on a non-2xx reply or a network error. Deliveries can
 * be paused (events queue up) and flushed in another order; any event can be sent again.
 */
import { createHmac } from "node:crypto";
import type { Obj } from "./store";

/** Stripe's signature header for `payload` at `timestamp` (epoch seconds). */
export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

/** One attempt to deliver an event. */
export interface Attempt { at: number; status: number | null; error?: string }

export interface WebhookOptions {
  /** Where events go; none → events are recorded, not sent. */
  url?: string;
  /** The endpoint's signing secret (`whsec_…`). */
  secret?: string;
  /** Real ms before each retry (default 500, 2000, 5000: three retries). */
  retryDelaysMs?: number[];
  /** Wall clock for the signature's `t` (default Date.now): the receiver checks it against its own clock. */
  wallNow?: () => number;
}

/** The delivery queue. */
export class WebhookSender {
  /** Attempts per event id. */
  readonly attempts = new Map<string, Attempt[]>();
  private queue: Obj[] = [];
  private held: Obj[] = [];
  private paused = false;
  private running: Promise<void> = Promise.resolve();
  private timers = new Set<ReturnType<typeof setTimeout>>();
  private stopped = false;

  private url: string | undefined;

  constructor(private readonly opts: WebhookOptions) {
    this.url = opts.url;
  }

  /** Points delivery at another endpoint (a product started after the simulator); undefined stops sending. */
  setUrl(url: string | undefined): void {
    this.url = url;
  }

  /** Queues an event (held while paused). */
  enqueue(event: Obj): void {
    if (this.paused) this.held.push(event);
    else this.push([event]);
  }

  /** Stops sending: new events are held until `flush`. */
  pause(): void {
    this.paused = true;
  }

  /**
   * Sends the held events and resumes: in arrival order, `reverse`d, or in the order of `ids` (held
   * events not named follow in arrival order). @returns the ids in the order they are sent
   */
  flush(order?: "reverse" | string[]): string[] {
    let events = this.held;
    this.held = [];
    this.paused = false;
    if (order === "reverse") events = [...events].reverse();
    else if (Array.isArray(order)) {
      const named = order.map((id) => events.find((e) => e.id === id)).filter((e): e is Obj => e !== undefined);
      events = [...named, ...events.filter((e) => !named.includes(e))];
    }
    this.push(events);
    return events.map((e) => e.id);
  }

  /** Sends events again (re-delivery, duplicates), in the given order, even while paused. */
  resend(events: Obj[]): void {
    this.push(events);
  }

  /** Ids of the events held by `pause`. */
  heldIds(): string[] {
    return this.held.map((e) => e.id);
  }

  /** Resolves when nothing is queued or in flight (retries waiting included). */
  async idle(): Promise<void> {
    for (;;) {
      const current = this.running;
      await current;
      if (current === this.running && this.timers.size === 0) return;
      if (this.timers.size > 0) await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Cancels pending retries; nothing more is sent. */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private push(events: Obj[]): void {
    this.queue.push(...events);
    this.running = this.running.then(() => this.drain());
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.stopped) await this.deliver(this.queue.shift()!, 0);
  }

  private async deliver(event: Obj, retry: number): Promise<void> {
    if (!this.url || this.stopped) return;
    const payload = JSON.stringify(event, null, 2);
    const t = Math.floor((this.opts.wallNow ?? Date.now)() / 1000);
    const attempt: Attempt = { at: t, status: null };
    const list = this.attempts.get(event.id) ?? [];
    this.attempts.set(event.id, [...list, attempt]);
    try {
      const res = await fetch(this.url, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8", "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)", "stripe-signature": signatureHeader(payload, this.opts.secret ?? "", t) },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer().catch(() => undefined);
      attempt.status = res.status;
      if (res.ok) return;
    } catch (err) {
      attempt.error = err instanceof Error ? err.message : String(err);
    }
    const delays = this.opts.retryDelaysMs ?? [500, 2000, 5000];
    if (retry >= delays.length || this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.running = this.running.then(() => this.deliver(event, retry + 1));
    }, delays[retry]);
    timer.unref?.();
    this.timers.add(timer);
  }
}

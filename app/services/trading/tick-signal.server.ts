/**
 * A tick's deadline (`TICK_TIMEOUT_SEC`, ADR 0013) as an abort signal over the user's broker client:
 * past it, or with the user's lock lost, nothing more reaches the broker for that tick.
 */
import type { BrokerPort } from "../../../core/broker/port";
import { isMsg, msg, type Msg } from "../../../core/i18n/message";
import { translateMsg } from "~/i18n";

/** A tick ran past its deadline (`TICK_TIMEOUT_SEC`) and was abandoned. */
export class TickDeadlineError extends Error {
  readonly messageMsg: Msg;
  constructor(readonly seconds: number) {
    const m = msg("bot:errors.deadline", { seconds });
    super(translateMsg(m, "pt"));
    this.name = "TickDeadlineError";
    this.messageMsg = m;
  }
}

/** The abort reason of a tick's signal, as an Error (a TickDeadlineError or a LockLostError). */
export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));
}

/** An error carrying its translatable message (TickDeadlineError, LockLostError). */
export const hasMsg = (err: unknown): err is Error & { messageMsg: Msg } => err instanceof Error && isMsg((err as { messageMsg?: unknown }).messageMsg);

/**
 * The user's broker client bound to a tick's signal: every call first checks the signal, and a call
 * in flight when it aborts is abandoned (its promise rejects with the abort reason at once; its
 * result, if any, is ignored). So nothing reaches the broker for this tick after its deadline.
 * An order abandoned in flight is like one whose answer was lost: its intent stays pending and the
 * next reconcile settles it from the broker's transactions (by client id).
 */
export function brokerWithSignal(client: BrokerPort, signal: AbortSignal): BrokerPort {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (signal.aborted) return Promise.reject(abortReason(signal));
        const call = Promise.resolve((value as (...a: unknown[]) => unknown).apply(target, args));
        return new Promise((resolve, reject) => {
          const onAbort = () => reject(abortReason(signal));
          signal.addEventListener("abort", onAbort, { once: true });
          call.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
        });
      };
    },
  });
}

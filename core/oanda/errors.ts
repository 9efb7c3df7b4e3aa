/**
 * Typed errors of the OANDA v20 client, classified by what the caller should do (DESIGN.md §2):
 * retry (`network`, `server`, `rate_limited`), stop and tell the user (`auth`, `forbidden`), or fix
 * the input (`bad_request`, `not_found`). `messageMsg` is the user-facing message of PRODUCT.md §8
 * ("Broker wizard"), translatable (core namespace `broker`, ADR 0007); `messagePt` its Portuguese
 * text. Error envelope and statuses: oanda/PROTOCOL.md §4.
 *
 * Tokens never appear in `message`, `messagePt` or `cause` text built here: every message passes
 * through `redact` with the client's token.
 */
import type { Transaction } from "../broker/port";
import { msg, renderMsg, type Msg } from "../i18n";

export type BrokerErrorKind =
  | "auth"
  | "forbidden"
  | "not_found"
  | "bad_request"
  | "rate_limited"
  | "server"
  | "network"
  | "invalid_response";

/** Portuguese texts of the messages of PRODUCT.md §8 (Broker wizard, "Direct API"), from the `broker` catalog. */
export const MESSAGES_PT = {
  auth: renderMsg(msg("broker:auth")),
  forbidden: renderMsg(msg("broker:forbidden")),
  invalidResponse: renderMsg(msg("broker:invalidResponse")),
  network: renderMsg(msg("broker:network")),
  status: (status: number) => renderMsg(msg("broker:status", { status })),
} as const;

export interface BrokerErrorInit {
  /** HTTP status; 0 when no response was received (network error, timeout). */
  status: number;
  kind: BrokerErrorKind;
  /** OANDA `errorCode` (for a rejected order: the reject transaction's `rejectReason`). */
  errorCode?: string;
  /** OANDA `errorMessage` (English, from the server). */
  errorMessage?: string;
  /** The `*RejectTransaction` of a 400 on an order/trade mutation (PROTOCOL.md §4, §7.8). */
  rejectTransaction?: Transaction;
  lastTransactionID?: string;
  /** Seconds asked by `Retry-After` on a 429/503, when present. */
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * Any failure of a call to OANDA. `kind` says what happened, `retryable` whether repeating the
 * same call may succeed (network, 5xx, 429), `messageMsg` what to show the user (`messagePt`: in
 * Portuguese).
 */
export class BrokerError extends Error {
  readonly status: number;
  readonly errorCode?: string;
  readonly errorMessage?: string;
  readonly kind: BrokerErrorKind;
  readonly retryable: boolean;
  /** The message for the user (render it in the reader's language). */
  readonly messageMsg: Msg;
  /** Its Portuguese text (logs, stored columns). */
  readonly messagePt: string;
  readonly rejectTransaction?: Transaction;
  readonly lastTransactionID?: string;
  readonly retryAfterMs?: number;

  constructor(message: string, init: BrokerErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "BrokerError";
    this.status = init.status;
    this.kind = init.kind;
    if (init.errorCode !== undefined) this.errorCode = init.errorCode;
    if (init.errorMessage !== undefined) this.errorMessage = init.errorMessage;
    if (init.rejectTransaction !== undefined) this.rejectTransaction = init.rejectTransaction;
    if (init.lastTransactionID !== undefined) this.lastTransactionID = init.lastTransactionID;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    this.retryable = init.kind === "network" || init.kind === "server" || init.kind === "rate_limited";
    this.messageMsg = messageFor(init.kind, init.status);
    this.messagePt = renderMsg(this.messageMsg);
  }
}

/** `kind` for an HTTP error status (PROTOCOL.md §4): 401 auth, 403 forbidden, 404, 429, 5xx, other 4xx. */
export function kindForStatus(status: number): BrokerErrorKind {
  if (status === 401) return "auth";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 429) return "rate_limited";
  if (status >= 500) return "server";
  return "bad_request";
}

/** The user-facing message for a kind/status (PRODUCT.md §8), a key of the `broker` catalog. */
export function messageFor(kind: BrokerErrorKind, status: number): Msg {
  switch (kind) {
    case "auth":
      return msg("broker:auth");
    case "forbidden":
      return msg("broker:forbidden");
    case "invalid_response":
      return msg("broker:invalidResponse");
    case "network":
      return msg("broker:network");
    default:
      return msg("broker:status", { status });
  }
}

/** Portuguese text of `messageFor(kind, status)`. */
export function messagePtFor(kind: BrokerErrorKind, status: number): string {
  return renderMsg(messageFor(kind, status));
}

/** Replaces every occurrence of `secret` (the bearer token) in `text` with `***`. */
export function redact(text: string, secret: string | undefined): string {
  if (!secret) return text;
  return text.split(secret).join("***");
}

/** True when `e` is a BrokerError. */
export function isBrokerError(e: unknown): e is BrokerError {
  return e instanceof BrokerError;
}

/**
 * Domain errors thrown by services (ADR 0009): they say what went wrong in the product's terms
 * (invalid input, not found, conflict, licence required…), never as an HTTP response. The message is
 * a translatable `Msg` (or a ready text), rendered in the reader's language at the edge (ADR 0007).
 *
 * The one table from error kind to HTTP status is `HTTP_STATUS` below; the JSON API turns errors
 * into responses in one function, `toResponse` (api.server.ts), and pages read `httpStatusOf(err)`.
 */
import type { Msg } from "../../../core/i18n/message";
import { translateMsg } from "~/i18n";

/** What the caller should do about a failure (DESIGN.md §2 "errors are typed by what the caller should do"). */
export type ErrorKind =
  | "validation"
  | "unauthorized"
  | "payment_required"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "rate_limited"
  | "upstream"
  | "unavailable"
  | "internal";

/** Error kind → HTTP status: the only place that knows it. */
export const HTTP_STATUS: Readonly<Record<ErrorKind, number>> = Object.freeze({
  validation: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  rate_limited: 429,
  upstream: 502,
  unavailable: 503,
  internal: 500,
});

/** Base of every domain error: a kind, a translatable message and extra fields for the API body. */
export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  /** The message (`Msg`) or a ready text; `message` holds its Portuguese text. */
  readonly msg: Msg | string;
  /** Extra fields of the JSON error body, e.g. `{field}` or `{retryAfter}`. */
  readonly extra: Record<string, unknown>;

  constructor(message: Msg | string, extra: Record<string, unknown> = {}) {
    super(translateMsg(message, "pt"));
    this.msg = message;
    this.extra = extra;
    this.name = new.target.name;
  }

  /** The message in a language (pt, en, es). */
  messageIn(language: unknown): string {
    return translateMsg(this.msg, language);
  }

  /** The HTTP status of this error (from `HTTP_STATUS`); for pages and legacy callers reading `err.status`. */
  get status(): number {
    return httpStatusOf(this);
  }
}

/** Bad input: 400 with the message naming the field (`extra.field`). */
export class ValidationError extends DomainError {
  readonly kind = "validation";
}
/** No (valid) session or credentials: 401 (the client logs the user out, PRODUCT.md §8). */
export class UnauthorizedError extends DomainError {
  readonly kind = "unauthorized";
}
/** A licence or payment is needed: 402 (not 403, which logs the user out: PRODUCT.md §8). */
export class PaymentRequiredError extends DomainError {
  readonly kind = "payment_required";
}
/** Not allowed (disabled account, cross-site request, unverified e-mail): 403. */
export class ForbiddenError extends DomainError {
  readonly kind = "forbidden";
}
/** The thing asked for does not exist (for this user): 404. */
export class NotFoundError extends DomainError {
  readonly kind = "not_found";
}
/** The HTTP method is not served by the endpoint: 405. */
export class MethodNotAllowedError extends DomainError {
  readonly kind = "method_not_allowed";
}
/** The request conflicts with current state (e.g. the e-mail is taken): 409. */
export class ConflictError extends DomainError {
  readonly kind = "conflict";
}
/** Too many attempts; `extra.retryAfter` in seconds: 429. */
export class RateLimitedError extends DomainError {
  readonly kind = "rate_limited";
}
/** A service we depend on (the broker) failed or could not be reached: 502. */
export class UpstreamError extends DomainError {
  readonly kind = "upstream";
}
/** We are overloaded for a moment (e.g. no free database connection in time); the caller may retry: 503. */
export class ServiceUnavailableError extends DomainError {
  readonly kind = "unavailable";
}
/** An unexpected failure with a message for the user: 500. */
export class InternalError extends DomainError {
  readonly kind = "internal";
}

const KIND_BY_STATUS = new Map<number, ErrorKind>(Object.entries(HTTP_STATUS).map(([k, s]) => [s, k as ErrorKind]));

/**
 * The former HTTP-shaped error, kept so older callers compile: `new ApiError(status, msg, extra)`
 * makes a domain error of the status's kind (an unknown status keeps its own number), and
 * `err instanceof ApiError` is true for every DomainError.
 * @deprecated throw the domain error of the case (ValidationError, NotFoundError…)
 */
export class ApiError extends DomainError {
  readonly kind: ErrorKind;
  private readonly fixedStatus: number | undefined;
  constructor(status: number, message: Msg | string, extra: Record<string, unknown> = {}) {
    super(message, extra);
    const kind = KIND_BY_STATUS.get(status);
    this.kind = kind ?? (status >= 500 ? "internal" : "validation");
    this.fixedStatus = kind ? undefined : status;
  }
  /** Every domain error is an ApiError for `instanceof` checks written before domain errors existed. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof DomainError;
  }
  /** The status given to the constructor when it is not one of HTTP_STATUS's. */
  get legacyStatus(): number | undefined {
    return this.fixedStatus;
  }
}

/** The HTTP status of a domain error. */
export function httpStatusOf(err: DomainError): number {
  if (Object.getPrototypeOf(err) === ApiError.prototype) return (err as ApiError).legacyStatus ?? HTTP_STATUS[err.kind];
  return HTTP_STATUS[err.kind];
}

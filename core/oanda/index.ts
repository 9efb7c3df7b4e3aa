/**
 * OANDA v20 client (public surface): `createOandaClient` implements `BrokerPort` over HTTP
 * (oanda/PROTOCOL.md §7); `BrokerError` is what every method throws; `runPriceStream` and
 * `NdjsonDecoder` are the pricing-stream machinery (PROTOCOL.md §7.6); the zod schemas parse
 * OANDA replies (PROTOCOL.md §3).
 */
export { createOandaClient, formatUnits, MAX_CANDLE_COUNT, OANDA_HOSTS, toWireTime } from "./client";
export type { OandaClient, OandaClientOptions } from "./client";
export { BrokerError, isBrokerError, kindForStatus, MESSAGES_PT, messageFor, messagePtFor, redact } from "./errors";
export type { BrokerErrorInit, BrokerErrorKind } from "./errors";
export { OANDA_REQUESTS_PER_SECOND, OANDA_TOKEN_REQUESTS_PER_SECOND, parseRetryAfter, tokenKey, UNLIMITED } from "./http";
export type { FetchLike, OandaLogger, RequestLimiter, RequestPriority } from "./http";
export * from "./schemas";
export { backoffDelay, NdjsonDecoder, parsePriceStreamLine, runPriceStream, sleepOrAbort } from "./stream";
export type { PriceStreamMessage, PriceStreamOptions } from "./stream";

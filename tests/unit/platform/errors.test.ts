/**
 * Domain errors (app/services/platform/errors.server.ts) and the one place that maps them to HTTP
 * (`toResponse` in api.server.ts, over the HTTP_STATUS table): status, body, reader's language,
 * and the ApiError kept for older callers (ADR 0009).
 */
import { describe, expect, it } from "vitest";
import { msg } from "../../../core/i18n/message";
import { apiRoute, toResponse } from "../../../app/route-support/api.server";
import {
  ApiError,
  ConflictError,
  DomainError,
  ForbiddenError,
  HTTP_STATUS,
  httpStatusOf,
  InternalError,
  MethodNotAllowedError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  UnauthorizedError,
  UpstreamError,
  ValidationError,
} from "../../../app/services/platform/errors.server";

const body = async (r: Response) => (await r.json()) as { success: boolean; message: string; error: string; [k: string]: unknown };

describe("toResponse: domain error → HTTP response", () => {
  it.each([
    [ValidationError, 400],
    [UnauthorizedError, 401],
    [PaymentRequiredError, 402],
    [ForbiddenError, 403],
    [NotFoundError, 404],
    [MethodNotAllowedError, 405],
    [ConflictError, 409],
    [RateLimitedError, 429],
    [InternalError, 500],
    [UpstreamError, 502],
  ] as const)("%o answers %i", async (Cls, status) => {
    const err = new Cls(msg("api:trades.notFound"));
    expect(httpStatusOf(err)).toBe(status);
    expect(HTTP_STATUS[err.kind]).toBe(status);
    const res = toResponse(err);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
  });

  it("renders the message in the reader's language and carries the extra fields", async () => {
    const err = new ValidationError(msg("api:malformedBody"), { field: "settings.maxTrades" });
    const pt = await body(toResponse(err));
    const en = await body(toResponse(err, "en"));
    expect(pt).toMatchObject({ success: false, field: "settings.maxTrades" });
    expect(pt.message).toBe(err.message);
    expect(pt.error).toBe(pt.message);
    expect(en.message).toBe(err.messageIn("en"));
    expect(en.message).not.toBe(pt.message);
  });

  it("passes a thrown Response through and hides anything else behind a 500", async () => {
    const r = new Response("x", { status: 418 });
    expect(toResponse(r)).toBe(r);
    const spy = console.error;
    console.error = () => {};
    try {
      const res = toResponse(new Error("secret detail"));
      expect(res.status).toBe(500);
      expect((await body(res)).message).not.toContain("secret detail");
    } finally {
      console.error = spy;
    }
  });

  it("apiRoute maps what the handler throws (and refuses other methods with 405)", async () => {
    const get = new Request("http://localhost/api/x");
    expect((await apiRoute(get, "GET", async () => { throw new PaymentRequiredError(msg("bot:errors.licenceRequired")); })).status).toBe(402);
    expect((await apiRoute(get, "POST", async () => ({ ok: true }))).status).toBe(405);
    expect((await apiRoute(get, "GET", async () => ({ ok: true }))).status).toBe(200);
  });
});

describe("ApiError: kept for older callers", () => {
  it("new ApiError(status, msg) is the domain error of that status", () => {
    const e = new ApiError(402, msg("bot:errors.licenceRequired"));
    expect(e).toBeInstanceOf(DomainError);
    expect(e.kind).toBe("payment_required");
    expect(e.status).toBe(402);
    expect(toResponse(e).status).toBe(402);
    expect(new ApiError(503, "x").status).toBe(503);
  });

  it("`instanceof ApiError` holds for every domain error (pages written before domain errors)", () => {
    expect(new NotFoundError("x")).toBeInstanceOf(ApiError);
    expect(new NotFoundError("x").status).toBe(404);
    expect(new Error("x")).not.toBeInstanceOf(ApiError);
  });
});

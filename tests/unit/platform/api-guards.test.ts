/**
 * The JSON API's guards in app/route-support/api.server.ts (issue 8 item 10): the method check (405 with
 * `Allow`, HEAD served by GET), the Origin check (`Origin: null` refused, `X-Forwarded-Host` never
 * trusted), JSON-only bodies (415) and `Retry-After` on a 429.
 */
import { describe, expect, it } from "vitest";
import { msg } from "../../../core/i18n/message";
import { allowHeader, apiRoute, assertSameOrigin, isJsonContentType, readBody } from "../../../app/route-support/api.server";
import { ForbiddenError, RateLimitedError } from "../../../app/services/platform/errors.server";
import { z } from "zod";

// Bytes, not a string: a string body would get `text/plain` on its own.
const post = (headers: Record<string, string>, body?: string) =>
  new Request("http://app.local:3000/api/x", { method: "POST", headers, body: body === undefined ? undefined : new TextEncoder().encode(body) });
const body = async (r: Response) => (await r.json()) as { success: boolean; message: string };

describe("apiRoute: methods", () => {
  it("405 with Allow for a method the route does not serve; HEAD is GET's", async () => {
    const handlers = { GET: async () => ({ ok: 1 }), DELETE: async () => ({ ok: 2 }) };
    const res = await apiRoute(new Request("http://app.local/api/x", { method: "PATCH" }), handlers);
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET, HEAD, DELETE");
    expect(await body(res)).toMatchObject({ success: false, message: "Método PATCH não permitido." });
    expect((await apiRoute(new Request("http://app.local/api/x", { method: "HEAD" }), handlers)).status).toBe(200);
    expect((await apiRoute(new Request("http://app.local/api/x", { method: "DELETE" }), handlers)).status).toBe(200);
    const single = await apiRoute(new Request("http://app.local/api/x"), "POST", async () => ({}));
    expect(single.headers.get("Allow")).toBe("POST");
    expect(allowHeader({ POST: async () => 1 })).toBe("POST");
  });

  it("a 429 carries Retry-After", async () => {
    const res = await apiRoute(new Request("http://app.local/api/x"), "GET", async () => {
      throw new RateLimitedError(msg("guard:tooManyRequests", { seconds: 42 }), { retryAfter: 41.2 });
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("42");
    expect((await body(res)).message).toBe("Muitas requisições. Aguarde 42 segundos e tente novamente.");
  });
});

describe("assertSameOrigin", () => {
  it("refuses `Origin: null` and hosts other than ours; X-Forwarded-Host does not make a host ours", () => {
    expect(() => assertSameOrigin(post({ origin: "null", host: "app.local:3000" }))).toThrow(ForbiddenError);
    expect(() => assertSameOrigin(post({ origin: "https://evil.example", host: "app.local:3000", "x-forwarded-host": "evil.example" }))).toThrow(ForbiddenError);
    expect(() => assertSameOrigin(post({ origin: "http://app.local:3000", host: "app.local:3000" }))).not.toThrow();
    expect(() => assertSameOrigin(post({ host: "app.local:3000" }))).not.toThrow(); // no Origin: not a browser
  });

  it("compares the scheme too: our host over another scheme is another origin (issue 24)", () => {
    // The request came over http://app.local:3000: a page served over https (or a downgraded one) is not ours.
    expect(() => assertSameOrigin(post({ origin: "https://app.local:3000", host: "app.local:3000" }))).toThrow(ForbiddenError);
    expect(() => assertSameOrigin(post({ referer: "https://app.local:3000/settings", host: "app.local:3000" }))).toThrow(ForbiddenError);
    expect(() => assertSameOrigin(post({ referer: "http://app.local:3000/settings", host: "app.local:3000" }))).not.toThrow();
  });
});

describe("readBody: JSON only", () => {
  const schema = z.object({ a: z.string() });
  it("form, multipart and text bodies → 415; JSON and untyped JSON are read", async () => {
    for (const type of ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"]) {
      const thrown = await readBody(post({ "content-type": type }, "a=1"), schema).catch((e: unknown) => e);
      expect(thrown, type).toBeInstanceOf(Response);
      expect((thrown as Response).status, type).toBe(415);
    }
    expect(await readBody(post({ "content-type": "application/json; charset=utf-8" }, '{"a":"x"}'), schema)).toEqual({ a: "x" });
    expect(await readBody(post({}, '{"a":"y"}'), schema)).toEqual({ a: "y" });
    expect(isJsonContentType("application/merge-patch+json")).toBe(true);
    expect(isJsonContentType("text/json")).toBe(false);
  });
});

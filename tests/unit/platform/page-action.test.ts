/**
 * app/route-support/page-action.server.ts (issue 23 item 5): the one shape of a page form action — a cross-site post
 * refused with 403 before any handler runs, the posted intent's handler (an unknown one served by the
 * fallback), a domain error answered by the page in the user's language with its status, an unexpected
 * error logged and answered by the page's 500, a non-form body refused with 415.
 */
import { describe, expect, it, vi } from "vitest";

const logged = vi.hoisted(() => [] as unknown[]);
vi.mock("~/services/platform/logger.server", () => ({ logger: () => ({ error: (o: unknown) => logged.push(o) }) }));
vi.mock("~/services/identity/request-language.server", () => ({ requestLanguage: async () => "pt" }));

import { msg } from "../../../core/i18n/message";
import { pageAction, type PageActionSpec } from "~/route-support/page-action.server";
import { NotFoundError } from "~/services/platform/errors.server";

const URL_ = "http://localhost:3000/pagina";
const post = (body: string, headers: Record<string, string> = {}) =>
  new Request(URL_, { method: "POST", headers: { host: "localhost:3000", "content-type": "application/x-www-form-urlencoded", ...headers }, body });

type Answer = { status: number; text: string };
const spec = (over: Partial<PageActionSpec<{ id: string }, Answer>> = {}): PageActionSpec<{ id: string }, Answer> => ({
  page: "/pagina",
  user: async () => ({ id: "u1" }),
  language: () => "en",
  intents: {
    save: ({ field, user }) => ({ status: 200, text: `saved ${field("name")} for ${user.id}` }),
    missing: () => {
      throw new NotFoundError(msg("api:internal"));
    },
    boom: () => {
      throw new Error("kaput");
    },
  },
  fallback: ({ intent }) => ({ status: 400, text: `unknown ${intent}` }),
  domainError: (err, { language }) => ({ status: err.status, text: err.messageIn(language) }),
  internal: (_err, { intent }) => ({ status: 500, text: `failed ${intent}` }),
  ...over,
});

describe("pageAction", () => {
  it("runs the posted intent's handler with the form and the user", async () => {
    expect(await pageAction(post("intent=save&name=Ana"), spec())).toEqual({ status: 200, text: "saved Ana for u1" });
  });

  it("serves a missing or unknown intent with the fallback (a handler, or the intent it names)", async () => {
    expect(await pageAction(post("intent=toString"), spec())).toEqual({ status: 400, text: "unknown toString" });
    expect(await pageAction(post("name=Bia"), spec({ fallback: "save" }))).toEqual({ status: 200, text: "saved Bia for u1" });
  });

  it("refuses a cross-site post with 403 before loading the user or running a handler", async () => {
    const user = vi.fn(async () => ({ id: "u1" }));
    const thrown = await pageAction(post("intent=save", { origin: "https://evil.example" }), spec({ user })).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(403);
    expect(await (thrown as Response).text()).toBe("Origem da requisição não permitida.");
    expect(user).not.toHaveBeenCalled();
    // A page with its own answer to it.
    const answer = await pageAction(post("intent=save", { referer: "https://evil.example/x" }), spec({ crossSite: (text) => ({ status: 403, text }) }));
    expect(answer).toEqual({ status: 403, text: "Origem da requisição não permitida." });
  });

  it("answers a domain error through the page, in the user's language, with its status", async () => {
    const r = await pageAction(post("intent=missing"), spec());
    expect(r).not.toBeInstanceOf(Response);
    expect((r as Answer).status).toBe(404);
    expect((r as Answer).text).toBe("Internal server error. Try again."); // English, not Portuguese
  });

  it("logs an unexpected error and answers the page's 500; without a hook it is rethrown", async () => {
    logged.length = 0;
    expect(await pageAction(post("intent=boom"), spec())).toEqual({ status: 500, text: "failed boom" });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ page: "/pagina", intent: "boom" });
    await expect(pageAction(post("intent=boom"), spec({ internal: undefined }))).rejects.toThrow("kaput");
    await expect(pageAction(post("intent=missing"), spec({ domainError: undefined }))).rejects.toBeInstanceOf(NotFoundError);
  });

  it("refuses a body that is not a form with 415", async () => {
    const req = new Request(URL_, { method: "POST", headers: { host: "localhost:3000", "content-type": "application/json" }, body: "{}" });
    const thrown = await pageAction(req, spec()).catch((e: unknown) => e);
    expect((thrown as Response).status).toBe(415);
  });
});

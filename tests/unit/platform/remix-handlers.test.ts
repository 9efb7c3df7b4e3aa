/**
 * server/remix-handlers.ts (ADR 0031): the production build split into the `/api/*` half and the pages half —
 * every route lands in exactly one half (the root in both), nested API routes follow their parents, and
 * the assets manifest the HTML and `/__manifest` read is filtered alike.
 */
import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { isApiPath, splitBuild } from "../../../server/remix-handlers";

type Route = { id: string; parentId?: string; path?: string; index?: boolean };
const route = (id: string, parentId: string | undefined, path?: string, index?: boolean): Route => ({ id, parentId, path, index });

function fakeBuild(routes: Route[]): ServerBuild {
  const byId = Object.fromEntries(routes.map((r) => [r.id, { ...r, module: {} }]));
  const assets = Object.fromEntries(routes.map((r) => [r.id, { ...r, module: `/assets/${r.id}.js`, hasLoader: true }]));
  return { entry: { module: {} }, routes: byId, assets: { url: "/assets/manifest.js", version: "1", entry: { module: "", imports: [] }, routes: assets }, future: {} } as unknown as ServerBuild;
}

const ROUTES = [
  route("root", undefined, ""),
  route("routes/_index", "root", undefined, true),
  route("routes/dashboard", "root", "dashboard"),
  route("routes/$", "root", "*"),
  route("routes/apiary", "root", "apiary"),
  route("routes/api.$", "root", "api/*"),
  route("routes/api.auth.login", "root", "api/auth/login"),
  route("routes/api.admin.users", "root", "api/admin/users"),
  route("routes/api.admin.users.$id", "routes/api.admin.users", ":id"),
];

describe("splitBuild", () => {
  it("puts /api routes (nested ones too) in the API half, every other route in the pages half, the root in both", () => {
    const { api, pages } = splitBuild(fakeBuild(ROUTES));
    expect(Object.keys(api.routes).sort()).toEqual(["root", "routes/api.$", "routes/api.admin.users", "routes/api.admin.users.$id", "routes/api.auth.login"]);
    expect(Object.keys(pages.routes).sort()).toEqual(["root", "routes/$", "routes/_index", "routes/apiary", "routes/dashboard"]);
    // The assets manifest (partial manifest in the HTML, /__manifest) knows the same routes as the handler.
    expect(Object.keys(api.assets.routes).sort()).toEqual(Object.keys(api.routes).sort());
    expect(Object.keys(pages.assets.routes).sort()).toEqual(Object.keys(pages.routes).sort());
    // The rest of the build is shared, the original untouched.
    expect(pages.entry).toBe(api.entry);
    expect(pages.assets.url).toBe("/assets/manifest.js");
  });

  it("refuses an API route under a pathless page layout (the split would cut the route tree)", () => {
    const broken = [...ROUTES, route("routes/_shell", "root"), route("routes/_shell.api.x", "routes/_shell", "api/x")];
    expect(() => splitBuild(fakeBuild(broken))).toThrow(/routes\/_shell\.api\.x/);
  });
});

describe("isApiPath", () => {
  it("is /api and below only", () => {
    expect(isApiPath("/api")).toBe(true);
    expect(isApiPath("/api/auth/login")).toBe(true);
    expect(isApiPath("/api/")).toBe(true);
    // As the Remix router matches: case-insensitive, escapes decoded.
    expect(isApiPath("/API/NADA")).toBe(true);
    expect(isApiPath("/%61pi/x")).toBe(true);
    expect(isApiPath("/%zz/x")).toBe(false);
    expect(isApiPath("/apiary")).toBe(false);
    expect(isApiPath("/dashboard.data")).toBe(false);
    expect(isApiPath("/")).toBe(false);
  });
});

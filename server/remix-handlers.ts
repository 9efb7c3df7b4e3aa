/**
 * The production Remix build served by two request handlers, one for `/api/*` and one for everything else
 * (pages, their `.data` requests, `/__manifest`, the other resource routes) — ADR 0031, issue 13.
 *
 * Why: the Remix/React Router stack flattens, ranks and compiles the whole route tree on every request
 * (`matchRoutes` in server-runtime, the static handler and the static router, the partial manifest of the
 * HTML) — with 94 routes, 59 of them API resource routes, that was about a seventh of a page's CPU. A page
 * never needs an API route in its tree: the browser calls the API with `fetch` (no Remix form or fetcher
 * posts to `/api`), so each handler gets only its half of the build (the root route in both).
 */
import type { ServerBuild } from "@remix-run/node";

/**
 * Whether a request path is served by the API half: `/api` and below, matched as the Remix router matches
 * (case-insensitive, percent-escapes decoded), so `/API/x` still gets the API's 404 JSON.
 */
export function isApiPath(pathname: string): boolean {
  const first = pathname.split("/", 2)[1] ?? "";
  let segment = first;
  try {
    segment = decodeURIComponent(first);
  } catch {
    // A malformed escape is no API path; the pages half answers it as before.
  }
  return segment.toLowerCase() === "api";
}

/** Route ids of a build and their full paths (parents' paths joined, no leading slash). */
function fullPaths(routes: ServerBuild["routes"]): Map<string, string> {
  const out = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = out.get(id);
    if (known !== undefined) return known;
    const route = routes[id];
    if (!route) throw new Error(`rota ${id} ausente do build`);
    const parent = route.parentId ? pathOf(route.parentId) : "";
    const own = route.path ?? "";
    const full = [parent, own].filter(Boolean).join("/");
    out.set(id, full);
    return full;
  };
  for (const id of Object.keys(routes)) pathOf(id);
  return out;
}

/**
 * Splits a production build into the build of the API routes (the root and every route under `api/`) and the
 * build of the rest (the root and every other route). The server routes and the assets manifest are filtered
 * alike (the HTML's partial manifest and `/__manifest` answers only know page routes).
 * @throws Error when a route's parent would land in the other half (the split would break the route tree)
 */
export function splitBuild(build: ServerBuild): { api: ServerBuild; pages: ServerBuild } {
  const paths = fullPaths(build.routes);
  const isApi = (id: string) => id !== "root" && /^api(\/|$)/.test(paths.get(id)!);
  const half = (api: boolean): ServerBuild => {
    const keep = (id: string) => id === "root" || isApi(id) === api;
    const routes: ServerBuild["routes"] = {};
    for (const [id, route] of Object.entries(build.routes)) {
      if (!keep(id)) continue;
      if (route.parentId && !keep(route.parentId)) throw new Error(`rota ${id} e sua rota-mãe ${route.parentId} ficariam em metades diferentes`);
      routes[id] = route;
    }
    const assetRoutes = Object.fromEntries(Object.entries(build.assets.routes).filter(([id]) => id in routes));
    return { ...build, routes, assets: { ...build.assets, routes: assetRoutes } };
  };
  return { api: half(true), pages: half(false) };
}

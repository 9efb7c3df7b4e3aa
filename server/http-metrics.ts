/**
 * HTTP request metrics (issue 24): every response counted and timed by method, route and status in the
 * process's registry (app/services/platform/metrics.server.ts). The route label is bounded: the pattern of
 * the Remix route the path matches (`/api/trades/:id`, never `/api/trades/123`), a fixed group for what
 * Express serves before Remix (`/assets/*`, `/api/stream/*`, the simulators, `/metrics`), else `other`.
 */
import type { RequestHandler } from "express";
import type { ServerBuild } from "@remix-run/node";
import { methodLabel, metrics, statusLabel } from "../app/services/platform/metrics.server";

/** Maps a request path to its bounded route label. */
export type RouteLabeler = (pathname: string) => string;

/** Paths Express answers itself (before Remix): their fixed labels, by prefix. */
const FIXED_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ["/api/stream/", "/api/stream/*"],
  ["/assets/", "/assets/*"],
  ["/oanda-sim/", "/oanda-sim/*"],
  ["/stripe-sim/", "/stripe-sim/*"],
];

interface CompiledRoute {
  label: string;
  regex: RegExp;
  score: number;
}

/** One route's full path (its parents' joined) from a build's route table. */
function fullPath(routes: ServerBuild["routes"], id: string, seen = new Set<string>()): string {
  const route = routes[id];
  if (!route || seen.has(id)) return "";
  seen.add(id);
  const parent = route.parentId ? fullPath(routes, route.parentId, seen) : "";
  return [parent, route.path ?? ""].filter(Boolean).join("/");
}

/** Escapes a literal for a regular expression. */
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A route pattern (`api/trades/:id`, `admin/*`, `:lang?/x`) compiled to an anchored, case-insensitive regex and
 * ranked as React Router ranks matches: static segments 10, dynamic 3, optional 2, splat −2, index +2.
 */
function compile(pattern: string, index: boolean): CompiledRoute {
  const segments = pattern.split("/").filter(Boolean);
  let source = "";
  let score = segments.length + (index ? 2 : 0);
  for (const seg of segments) {
    if (seg === "*") {
      source += "(?:/.*)?";
      score -= 2;
    } else if (seg.startsWith(":")) {
      const optional = seg.endsWith("?");
      source += optional ? "(?:/[^/]+)?" : "/[^/]+";
      score += optional ? 2 : 3;
    } else {
      const optional = seg.endsWith("?");
      const text = literal(optional ? seg.slice(0, -1) : seg);
      source += optional ? `(?:/${text})?` : `/${text}`;
      score += 10;
    }
  }
  return { label: "/" + segments.join("/"), regex: new RegExp(`^${source}/?$`, "i"), score };
}

/**
 * The route labeler of a build: its route patterns compiled once, the best-ranked match wins (a path no route
 * matches → `other`). Costs a few microseconds per request (no route tree is built per request).
 */
export function routeLabeler(routes: ServerBuild["routes"]): RouteLabeler {
  const byLabel = new Map<string, CompiledRoute>();
  for (const [id, route] of Object.entries(routes)) {
    if (id === "root") continue;
    const c = compile(fullPath(routes, id), route.index === true);
    const known = byLabel.get(c.label);
    if (!known || known.score < c.score) byLabel.set(c.label, c);
  }
  const compiled = [...byLabel.values()].sort((a, b) => b.score - a.score);
  return (pathname) => {
    if (pathname === "/metrics") return "/metrics";
    for (const [prefix, label] of FIXED_PREFIXES) if (pathname.startsWith(prefix)) return label;
    if (pathname === "/" || pathname === "") return "/";
    for (const c of compiled) if (c.regex.test(pathname)) return c.label;
    return "other";
  };
}

/**
 * Counts and times each response when it ends (sent or dropped by the client): `forexia_http_requests_total`
 * and `forexia_http_request_duration_seconds`. `labeler()` is read at the response's end (the build, and
 * with it the labeler, is loaded after the server starts listening); without one the route is `other`.
 */
export function httpMetrics(labeler: () => RouteLabeler | undefined): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once("close", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // The path as the client sent it (a mounted handler such as /api/stream strips its prefix from req.url).
      const route = labeler()?.(req.originalUrl.split("?", 1)[0]!) ?? "other";
      const method = methodLabel(req.method);
      const m = metrics();
      m.httpRequests.inc({ method, route, status: statusLabel(res.statusCode) });
      m.httpDuration.observe({ method, route }, seconds);
    });
    next();
  };
}

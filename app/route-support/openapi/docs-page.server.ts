/**
 * The human reference of the API at /api/docs (issue 24): Swagger UI (swagger-ui-dist, a maintained
 * static renderer) drawing /api/openapi.json. Everything is served from this origin — the renderer's
 * script and style sheet from node_modules through /api/docs/{asset}, and our own start-up script —
 * so the page works offline and under the app's Content-Security-Policy (scripts from 'self', no
 * inline script, no external request: the schema validator badge is off).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { msg } from "../../../core/i18n/message";
import { NotFoundError } from "~/services/platform/errors.server";

/** The start-up script: renders the document into #swagger-ui. */
const INIT_JS = `window.ui = SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  docExpansion: "list",
  defaultModelsExpandDepth: 0,
  displayOperationId: false,
  tryItOutEnabled: false,
});
`;

/** The files /api/docs/{asset} serves, with their types. */
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "init.js": "text/javascript; charset=utf-8",
};

let distDir: string | undefined;
let distVersion: string | undefined;
const cache = new Map<string, Buffer>();

/** The swagger-ui-dist folder and version (resolved once, from node_modules). */
async function swaggerDist(): Promise<{ dir: string; version: string }> {
  if (!distDir || !distVersion) {
    const pkg = createRequire(import.meta.url).resolve("swagger-ui-dist/package.json");
    distDir = path.dirname(pkg);
    distVersion = (JSON.parse(await readFile(pkg, "utf8")) as { version: string }).version;
  }
  return { dir: distDir, version: distVersion };
}

/** The reference page: Swagger UI's style sheet and bundle, then the start-up script, all same-origin. */
export async function docsPage(): Promise<Response> {
  const { version } = await swaggerDist();
  const v = encodeURIComponent(version);
  const html = `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Forex IA — API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css?v=${v}">
</head>
<body>
<noscript><p>A referência precisa de JavaScript. O documento OpenAPI está em <a href="/api/openapi.json">/api/openapi.json</a>.</p></noscript>
<div id="swagger-ui" data-testid="api-docs"></div>
<script src="/api/docs/swagger-ui-bundle.js?v=${v}"></script>
<script src="/api/docs/init.js?v=${v}"></script>
</body>
</html>
`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" } });
}

/**
 * One asset of the page (cached in memory after the first read; browsers may keep it a day, the
 * page's links carry the renderer's version).
 * @throws NotFoundError for any other name.
 */
export async function docsAsset(name: string): Promise<Response> {
  const type = ASSETS[name];
  if (!type) throw new NotFoundError(msg("guard:notFound"));
  let body = cache.get(name);
  if (!body) {
    body = name === "init.js" ? Buffer.from(INIT_JS) : await readFile(path.join((await swaggerDist()).dir, name));
    cache.set(name, body);
  }
  return new Response(new Uint8Array(body), { headers: { "Content-Type": type, "Cache-Control": "public, max-age=86400" } });
}

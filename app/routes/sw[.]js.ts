/**
 * GET /sw.js: the service worker (source app/pwa/service-worker.js), from the origin root so its scope
 * is the whole app (`Service-Worker-Allowed: /`), revalidated on every load (`no-cache`) so a new
 * version reaches browsers at once. Public.
 */
import source from "~/pwa/service-worker.js?raw";

export const loader = () =>
  new Response(source, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Service-Worker-Allowed": "/",
      "Cache-Control": "no-cache",
    },
  });

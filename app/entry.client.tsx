/**
 * Browser entry: loads the catalogues the server-rendered page needs — its language and pt (the fallback);
 * for the hero only the boot namespaces, for other pages the whole language (ADR 0029, issue 13) — then
 * hydrates, so the hydrated texts equal the server's.
 */
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { DEFAULT_LANGUAGE, languageOfLocale, loadNamespaces, namespacesForRoutes } from "~/i18n";

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}

/** Route ids of the server-rendered page (Remix's hydration data: the route modules it imported before this entry). */
function renderedRouteIds(): string[] {
  const w = window as unknown as { __remixRouteModules?: Record<string, unknown> };
  return Object.keys(w.__remixRouteModules ?? {});
}

const language = languageOfLocale(document.documentElement.lang);
const routeIds = renderedRouteIds();
// A failed chunk still hydrates (the texts fall back to what is loaded) rather than leave the page inert.
loadNamespaces([DEFAULT_LANGUAGE, language], namespacesForRoutes(routeIds.length ? routeIds : ["?"], language)).then(hydrate, hydrate);

/**
 * Browser entry: loads the page language's catalogues (and pt, the fallback) — one chunk each, not all
 * three languages in the first load (issue 13) — then hydrates.
 */
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { DEFAULT_LANGUAGE, languageOfLocale, loadLanguages } from "~/i18n";

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

// A failed chunk still hydrates (the texts fall back to what is loaded) rather than leave the page inert.
loadLanguages(DEFAULT_LANGUAGE, languageOfLocale(document.documentElement.lang)).then(hydrate, hydrate);

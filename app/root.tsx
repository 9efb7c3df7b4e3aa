/** Document shell: html in the user's language, styles, app chrome (header + dock for logged-in non-admins) and the router error screen. */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import { useNonce } from "~/lib/nonce";
import { AppHeader, NavDock } from "~/components/layout";
import { i18nFor, INTL_LOCALE, loadLanguages, toLanguage } from "~/i18n";
import { chromeData } from "~/route-support/pages.server";
import { usePushRegistration } from "~/lib/push-client";
import styles from "./tailwind.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.ico", sizes: "any" },
  // Installable app and its icons (issue 11; app/routes/manifest[.]webmanifest.ts).
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png", sizes: "180x180" },
];

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const t = i18nFor(data?.language).getFixedT(null, "common");
  return [{ title: t("meta.title") }, { name: "description", content: t("meta.description") }, { name: "theme-color", content: "#020617" }];
};

export const loader = async ({ request, context }: LoaderFunctionArgs) => chromeData(request, context);

/** Pages where the header and dock are hidden (PRODUCT.md §2 Navigation and header: auth, contract, done, admin, subscription). */
function chromeHidden(pathname: string): boolean {
  return pathname.startsWith("/auth") || pathname.startsWith("/admin") || pathname.startsWith("/subscription");
}

/** The html document around every page and the error screen. */
export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const { pathname } = useLocation();
  const showChrome = !!data?.user && data.user.role !== "admin" && !chromeHidden(pathname);
  // One shared instance per language: no i18next init per server render (issue 13). The first load carries
  // only the namespaces its page renders (ADR 0029); the first navigation, or a language switched in the
  // browser (settings), loads the rest of the language (screens needing it meanwhile suspend, app/i18n).
  const i18n = i18nFor(data?.language);
  const [firstLanguage] = useState(data?.language);
  const navigating = useNavigation().state !== "idle";
  useEffect(() => {
    if (navigating || data?.language !== firstLanguage) void loadLanguages(data?.language).catch(() => {});
  }, [navigating, data?.language, firstLanguage]);
  const nonce = useNonce();
  // Web push after login (PRODUCT.md §2): the service worker, and the subscription when allowed.
  usePushRegistration(showChrome ? data?.user?.email : null);
  return (
    <I18nextProvider i18n={i18n}>
    <html lang={INTL_LOCALE[toLanguage(data?.language)]} className="dark">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <Meta />
        <Links />
      </head>
      <body>
        {showChrome && <AppHeader unread={data?.unread ?? 0} />}
        <div className={showChrome ? "pb-24 md:pb-28" : undefined}>{children}</div>
        {showChrome && <NavDock botActive={!!data?.botActive} />}
        <ScrollRestoration nonce={nonce || undefined} />
        <Scripts nonce={nonce || undefined} />
      </body>
    </html>
    </I18nextProvider>
  );
}

/** The routed page. */
export default function App() {
  return <Outlet />;
}

/**
 * The detail a route error response carries for the reader: its status and its own message, never
 * the router's developer text (a 404/405 made by the router carries "Error: You made a POST request…").
 */
function responseDetail(status: number, statusText: string, data: unknown): string {
  const own = typeof data === "string" && data.trim() !== "" && !data.startsWith("Error: ") ? ` — ${data}` : "";
  return `${status}${statusText ? ` ${statusText}` : ""}${own}`;
}

/**
 * Generic router error screen (PRODUCT.md §2): 'Unexpected Application Error!' (the spec's wording in
 * every language), what went wrong in the reader's language (a thrown response's status and message;
 * for any other error only a translated generic text — its developer-facing message is logged by the
 * server or, in the browser, by the router), and a full-page link back to the start. Unknown paths
 * never get here: $.tsx sends them to /.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation("common");
  const detail = isRouteErrorResponse(error) ? responseDetail(error.status, error.statusText, error.data) : t("unknownError");
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 px-6 text-center">
      <h1 className="text-2xl font-bold text-rose-300" data-testid="app-error">
        {t("unexpectedError")}
      </h1>
      <p className="break-words text-slate-300" data-testid="app-error-detail">
        {detail}
      </p>
      <a href="/" className="inline-flex min-h-11 items-center rounded-xl bg-white/10 px-4 py-2.5 text-sm font-semibold text-slate-100 hover:bg-white/15">
        {t("backHome")}
      </a>
    </main>
  );
}

/**
 * GET /manifest.webmanifest: the web app manifest (issue 11) — installable on Android and desktop:
 * name, pt-BR, standalone, start at /, the UI's colours (slate-950 background, emerald accent), icons
 * 192/512 and a maskable 512 (public/icons/, made from public/icons/logo.svg). Public, cached an hour.
 */
const MANIFEST = {
  id: "/",
  name: "Forex IA",
  short_name: "Forex IA",
  description: "Trading automático de forex com IA na sua conta OANDA.",
  lang: "pt-BR",
  dir: "ltr",
  start_url: "/",
  scope: "/",
  display: "standalone",
  orientation: "any",
  background_color: "#020617",
  theme_color: "#020617",
  categories: ["finance"],
  icons: [
    { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
    { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
  ],
};

export const loader = () =>
  new Response(JSON.stringify(MANIFEST), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });

import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { catalogueChunk } from "./app/i18n/boot";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  // Browser: each language's catalogue files in two chunks, the hero's namespaces and the rest (ADR 0029).
  build: isSsrBuild ? {} : { rollupOptions: { output: { manualChunks: catalogueChunk } } },
  server: { hmr: process.env.NODE_ENV !== "test" },
  plugins: [
    tailwindcss(),
    remix({
      // BUILD_DIR (default build/): lets parallel checkouts of the tests build side by side.
      buildDirectory: process.env.BUILD_DIR || "build",
      ignoredRouteFiles: ["**/*.test.*"],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
    tsconfigPaths(),
  ],
}));

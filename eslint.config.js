import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import { readFileSync } from "node:fs";

/**
 * The core boundary (DESIGN.md §2, ADR 0009, ADR 0038): `core/` is the framework-free trading domain. It
 * imports only the packages on its allow-list (architecture.json `core.packages`, each decided in ADR
 * 0038) and other core files — no Node built-ins, no web framework, database or queue client, nothing of
 * app/ jobs/ server/ db/ — reads no environment and no wall clock and sets no timers (a Clock or `now` is
 * passed in).
 */
const architecture = JSON.parse(readFileSync(`${import.meta.dirname}/architecture.json`, "utf8"));
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const CORE_ALLOWED = architecture.core.packages.map(escape).join("|");
/** Any bare specifier not on the allow-list (a package or subpath of one), the `~/` alias, or a climb out of core. */
const CORE_FORBIDDEN_IMPORT = `^((?!(${CORE_ALLOWED})(/.*)?$)[^./].*|(\\.\\./)+(app|jobs|server|db)(/.*)?)$`;
const coreBoundary = {
  files: ["core/**/*.{ts,tsx}"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          {
            regex: CORE_FORBIDDEN_IMPORT,
            message: "core/ imports only its allow-list (architecture.json, ADR 0038) and core files: do the I/O in server/ or app/ and pass the result in.",
          },
        ],
      },
    ],
    "no-restricted-globals": [
      "error",
      ...["setTimeout", "setInterval", "setImmediate"].map((name) => ({ name, message: "core/ sets no timers: take a Clock (core/clock.ts) and use clock.sleep()." })),
      { name: "process", message: "core/ reads no environment or process state: take the value as a parameter (config is parsed at boot)." },
      { name: "performance", message: "core/ reads no clock: take a `now`/`clock` function as a parameter." },
    ],
    "no-restricted-properties": [
      "error",
      { object: "Date", property: "now", message: "core/ reads no wall clock: take a Clock or a `now` parameter." },
      { object: "process", property: "env", message: "core/ reads no environment: config is parsed at boot and passed in." },
      { object: "globalThis", property: "process", message: "core/ reads no environment or process state." },
      { object: "globalThis", property: "setTimeout", message: "core/ sets no timers: take a Clock." },
      { object: "globalThis", property: "setInterval", message: "core/ sets no timers: take a Clock." },
      { object: "globalThis", property: "performance", message: "core/ reads no clock: take a `now` parameter." },
    ],
    "no-restricted-syntax": [
      "error",
      { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: "core/ reads no wall clock: `new Date()` without arguments is now; take a Clock." },
      { selector: "CallExpression[callee.name='Date']", message: "core/ reads no wall clock: `Date()` is now as text; take a Clock." },
    ],
  },
};

/**
 * The layout around core (issue 23 item 4; docs/ARCHITECTURE.md): services are called, never call up — no
 * server/ (composition roots and CLIs), routes or components; routes reach the database only through services;
 * components import server modules for their types only (a value import would ship server code to the browser).
 */
const layoutBoundaries = [
  {
    files: ["app/services/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^((\\.\\./)+server(/.*)?|~/(routes|components)(/.*)?|(\\.\\./)+(routes|components)(/.*)?)$",
              message: "Services are called, they do not call up: no server/, routes or components (docs/ARCHITECTURE.md).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/routes/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ regex: "^(postgres|pg-boss|.*/db\\.server)$", message: "Routes reach the database through a service, never db() or a driver." }],
        },
      ],
    },
  },
  {
    files: ["app/components/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [{ regex: "\\.server$", allowTypeImports: true, message: "Components import server modules for their types only (`import type`)." }],
        },
      ],
    },
  },
];

/**
 * One block per service room (issue 23 item 4, ADR 0038): a room imports only the rooms below it in
 * architecture.json. tests/unit/architecture/rooms.test.ts checks the same on resolved paths; this gives
 * the message in the editor. app/lib, below every service, imports no service, route or component.
 */
const SERVICE_ROOMS = Object.entries(architecture.rooms)
  .filter(([name]) => name.startsWith("services/"))
  .map(([name, room]) => ({ folder: name.slice("services/".length), mayImport: room.may_import }));
const serviceRoomBoundaries = SERVICE_ROOMS.map(({ folder, mayImport }) => {
  const above = SERVICE_ROOMS.map((r) => r.folder).filter((r) => r !== folder && !mayImport.includes(`services/${r}`));
  if (above.length === 0) return null;
  const names = above.join("|");
  return {
    files: [`app/services/${folder}/**/*.{ts,tsx}`],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^(~/services/(${names})(/.*)?|(\\.\\./)+(${names})/.*)$`,
              message: `The ${folder} room imports only the rooms below it (architecture.json, ADR 0038): not ${above.join(", ")}.`,
            },
          ],
        },
      ],
    },
  };
}).filter(Boolean);
const libBoundary = {
  files: ["app/lib/**/*.{ts,tsx}"],
  rules: {
    "@typescript-eslint/no-restricted-imports": [
      "error",
      {
        patterns: [
          {
            regex: "^(~/(services|routes|components|route-support)(/.*)?|(\\.\\./)+(services|routes|components|route-support)(/.*)?)$",
            message: "app/lib sits below the services: no services, routes, components or route-support (ADR 0038).",
          },
        ],
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ["build/**", "build-*/**", "node_modules/**", "test-results/**", "playwright-report/**", ".data/**", "public/build/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  coreBoundary,
  ...layoutBoundaries,
  ...serviceRoomBoundaries,
  libBoundary,
  {
    // Config is parsed once at boot (ADR 0009): only server/env.ts reads the environment
    // (tests/unit/architecture/process-env.test.ts checks the same, and who imports it).
    files: ["app/**/*.{ts,tsx}", "jobs/**/*.ts", "server/**/*.ts", "db/**/*.ts"],
    ignores: ["server/env.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read config with config() (app) or take it as a parameter; only server/env.ts reads the environment, at boot." },
      ],
    },
  },
);

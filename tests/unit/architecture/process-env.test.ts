/**
 * Config is parsed once at boot and passed in (DESIGN.md §5, ADR 0009): in app/, jobs/, server/,
 * db/ and core/ only server/env.ts touches `process.env`, and only the entry points call it.
 */
import { describe, expect, it } from "vitest";
import ts from "typescript";
import { forEachNode, importSpecifiers, parse, resolveImport, sourceFiles } from "./source-files";

const FILES = sourceFiles(["app", "jobs", "server", "db", "core"]);
const ENV_MODULE = "server/env.ts";
/** The boot code of each process: the app, the standalone simulator, the migration CLI, the backup/restore CLI. */
const ENTRY_POINTS = ["server/index.ts", "server/simulator/cli.ts", "db/migrate-cli.ts", "server/cli/db-backup.ts"];
/** Reads not fixed yet: none (CRASH_AT is a config field since the executor work). */
const KNOWN = new Set<string>();

/** Lines that read or write `process.env` (`process.env.X`, `process.env[x]`, `process["env"]`, `{ env } = process`). */
function envAccesses(sf: ts.SourceFile): number[] {
  const lines: number[] = [];
  forEachNode(sf, (n) => {
    const isProcess = (e: ts.Node) => ts.isIdentifier(e) && e.text === "process";
    const hit =
      (ts.isPropertyAccessExpression(n) && isProcess(n.expression) && n.name.text === "env") ||
      (ts.isElementAccessExpression(n) && isProcess(n.expression) && ts.isStringLiteral(n.argumentExpression) && n.argumentExpression.text === "env") ||
      (ts.isVariableDeclaration(n) && n.initializer !== undefined && isProcess(n.initializer) && ts.isObjectBindingPattern(n.name) &&
        n.name.elements.some((e) => (e.propertyName ?? e.name).getText(sf) === "env"));
    if (hit) lines.push(sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1);
  });
  return lines;
}

describe("process.env", () => {
  it("is read only in server/env.ts", () => {
    const offenders = FILES.filter((f) => f !== ENV_MODULE && !KNOWN.has(f)).flatMap((f) => envAccesses(parse(f)).map((line) => `${f}:${line}`));
    expect(offenders).toEqual([]);
    expect(envAccesses(parse(ENV_MODULE)).length).toBeGreaterThan(0);
  });

  it("is handed over only by the entry points (server/env.ts is imported by nothing else)", () => {
    const known = new Set(FILES);
    const importers = FILES.filter((f) => importSpecifiers(parse(f)).some((s) => resolveImport(f, s, known) === ENV_MODULE));
    expect(importers.sort()).toEqual([...ENTRY_POINTS].sort());
  });

  it("finds every form of access (self-check of the detector)", () => {
    const code = [
      "const a = process.env.PORT;",
      'const b = process.env["HOST"];',
      'const c = process["env"].X;',
      "const { env } = process;",
      "process.env.APP_URL = 'x';",
      "const d = processEnv.PORT; // not an access",
    ].join("\n");
    const sf = ts.createSourceFile("probe.ts", code, ts.ScriptTarget.Latest, true);
    expect(envAccesses(sf)).toEqual([1, 2, 3, 4, 5]);
  });
});

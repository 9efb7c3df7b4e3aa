/**
 * Folder → folder: every import between the product's rooms follows architecture.json (issue 23
 * item 4, docs/ARCHITECTURE.md "Import rules"). Each file belongs to the room with the longest
 * matching path prefix; an import into another room must be in that room's `may_import` (or, with
 * `import type` only, its `types_only`). Core's packages must be on its allow-list (ADR 0038). Static
 * imports, re-exports and dynamic `import()` with a literal are all counted.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { forEachNode, parse, resolveImport, sourceFiles } from "./source-files";

interface Room {
  paths: string[];
  may_import: string[];
  types_only?: string[];
}
interface Architecture {
  core: { packages: string[] };
  rooms: Record<string, Room>;
}

const ROOT = path.resolve(__dirname, "../../..");
const architecture = JSON.parse(readFileSync(path.join(ROOT, "architecture.json"), "utf8")) as Architecture;

/** The room of a repo-relative file (longest matching prefix), or undefined when no room claims it. */
export function roomOf(file: string, rooms: Record<string, Room> = architecture.rooms): string | undefined {
  let best: [string, number] | undefined;
  for (const [name, room] of Object.entries(rooms))
    for (const p of room.paths) if ((file === p || (p.endsWith("/") && file.startsWith(p))) && (!best || p.length > best[1])) best = [name, p.length];
  return best?.[0];
}

/** One import of a file: its specifier and whether it brings types only. */
export interface ImportRef {
  spec: string;
  typeOnly: boolean;
}

/** Every import of a file with its type-only flag: import/export declarations and literal dynamic `import()`. */
export function importsOf(sf: ts.SourceFile): ImportRef[] {
  const out: ImportRef[] = [];
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const clause = st.importClause;
      const allTypeSpecifiers = !!clause && !clause.name && !!clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly);
      out.push({ spec: st.moduleSpecifier.text, typeOnly: !!clause?.isTypeOnly || allTypeSpecifiers });
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      out.push({ spec: st.moduleSpecifier.text, typeOnly: st.isTypeOnly });
    }
  }
  forEachNode(sf, (n) => {
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0]))
      out.push({ spec: n.arguments[0].text, typeOnly: false });
  });
  return out;
}

/** The imports of `files` that architecture.json does not allow, as "from → to (room → room)". */
export function wrongWayImports(files: readonly string[], read: (f: string) => ts.SourceFile = parse, arch: Architecture = architecture): string[] {
  const known = new Set(files);
  const bad: string[] = [];
  for (const f of files) {
    const from = roomOf(f, arch.rooms);
    if (!from) continue;
    const room = arch.rooms[from]!;
    for (const { spec, typeOnly } of importsOf(read(f))) {
      const target = resolveImport(f, spec, known);
      if (!target) continue;
      const to = roomOf(target, arch.rooms);
      if (!to || to === from || room.may_import.includes("*") || room.may_import.includes(to)) continue;
      if (typeOnly && room.types_only?.includes(to)) continue;
      bad.push(`${f} → ${target} (${from} → ${to}${typeOnly ? ", type" : ""})`);
    }
  }
  return bad;
}

/** Packages core imports that are not on its allow-list. */
export function corePackagesOutsideAllowList(files: readonly string[], read: (f: string) => ts.SourceFile = parse): string[] {
  const allowed = architecture.core.packages;
  const bad: string[] = [];
  for (const f of files)
    for (const { spec } of importsOf(read(f))) {
      if (spec.startsWith(".")) continue;
      if (!allowed.some((p) => spec === p || spec.startsWith(`${p}/`))) bad.push(`${f} → ${spec}`);
    }
  return bad;
}

const PRODUCT_FOLDERS = ["app", "core", "jobs", "server", "db"];

describe("rooms (architecture.json)", () => {
  it("every file of the product belongs to a room", () => {
    const homeless = sourceFiles(PRODUCT_FOLDERS).filter((f) => !roomOf(f) && !f.startsWith("db/migrations/"));
    expect(homeless).toEqual([]);
  });

  it("every import between rooms goes the allowed way", () => {
    expect(wrongWayImports(sourceFiles(PRODUCT_FOLDERS))).toEqual([]);
  });

  it("core imports only the packages on its allow-list", () => {
    expect(corePackagesOutsideAllowList(sourceFiles(["core"]))).toEqual([]);
  });

  it("catches a deliberate wrong-way import (a lower room importing a higher one, a value import of a service in a component)", () => {
    const fake: Record<string, string> = {
      "app/services/platform/zz.ts": `import { runTick } from "../trading/zz";\nexport const x = runTick;`,
      "app/services/trading/zz.ts": `export const runTick = 1;`,
      "app/components/zz.tsx": `import { runTick } from "~/services/trading/zz";\nimport type { T } from "~/services/trading/zz";\nexport const y = runTick;`,
      "core/zz.ts": `import express from "express";\nimport { z } from "zod";\nexport const c = [express, z];`,
    };
    const read = (f: string) => ts.createSourceFile(f, fake[f]!, ts.ScriptTarget.Latest, true, f.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const files = Object.keys(fake);
    expect(wrongWayImports(files, read)).toEqual([
      "app/services/platform/zz.ts → app/services/trading/zz.ts (services/platform → services/trading)",
      "app/components/zz.tsx → app/services/trading/zz.ts (app/components → services/trading)",
    ]);
    expect(corePackagesOutsideAllowList(["core/zz.ts"], read)).toEqual(["core/zz.ts → express"]);
  });
});

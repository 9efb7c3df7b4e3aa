/**
 * The product's own TypeScript sources, parsed with the compiler API, for the architecture tests
 * (import cycles, environment reads). No type checking: only the syntax tree of each file.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export const ROOT = path.resolve(import.meta.dirname, "../../..");

/** Every .ts/.tsx file (not .d.ts) under the given top-level folders, as repo-relative paths with `/`. */
export function sourceFiles(folders: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) {
        if (name !== "node_modules") walk(full);
      } else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(path.relative(ROOT, full).split(path.sep).join("/"));
    }
  };
  for (const f of folders) walk(path.join(ROOT, f));
  return out.sort();
}

/** The syntax tree of a repo-relative file. */
export function parse(file: string): ts.SourceFile {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

/** Calls `visit` on every node of a tree. */
export function forEachNode(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  node.forEachChild((c) => forEachNode(c, visit));
}

/**
 * The static module specifiers of a file: `import … from`, `export … from` and `import x = require()`
 * (type-only imports included, as madge counts them; dynamic `import()` is not).
 */
export function importSpecifiers(sf: ts.SourceFile): string[] {
  const out: string[] = [];
  for (const st of sf.statements) {
    if ((ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) out.push(st.moduleSpecifier.text);
    else if (ts.isImportEqualsDeclaration(st) && ts.isExternalModuleReference(st.moduleReference) && ts.isStringLiteral(st.moduleReference.expression))
      out.push(st.moduleReference.expression.text);
  }
  return out;
}

/**
 * Resolves a specifier to a repo-relative source file among `known` (relative paths and the `~/`
 * alias of app/); undefined for packages and for files outside the set.
 */
export function resolveImport(from: string, spec: string, known: ReadonlySet<string>): string | undefined {
  let base: string;
  if (spec.startsWith("~/")) base = `app/${spec.slice(2)}`;
  else if (spec.startsWith("./") || spec.startsWith("../")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return undefined;
  base = base.replace(/\.(ts|tsx|js)$/, "");
  for (const c of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) if (known.has(c)) return c;
  return undefined;
}

/**
 * No import cycles across app/, core/, jobs/, server/ and db/ (ADR 0009). The graph is built from
 * each file's static imports and re-exports (type-only ones included, as madge counts them), with
 * the compiler's parser and the `~/` alias of app/; cycles are the strongly connected components.
 */
import { describe, expect, it } from "vitest";
import { importSpecifiers, parse, resolveImport, sourceFiles } from "./source-files";

/** file → the product files it imports. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const deps = importSpecifiers(parse(f))
      .map((s) => resolveImport(f, s, known))
      .filter((d): d is string => d !== undefined);
    graph.set(f, [...new Set(deps)]);
  }
  return graph;
}

/** Strongly connected components with a cycle (Tarjan), each as one example path `a → b → … → a`. */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(comp);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((comp) => examplePath(graph, new Set(comp)));
}

/** A shortest cycle through the component's first file (breadth-first inside the component). */
function examplePath(graph: ReadonlyMap<string, readonly string[]>, comp: ReadonlySet<string>): string {
  const start = [...comp].sort()[0]!;
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!comp.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(prev.get(path[0]!)!);
        return [...path, start].join(" → ");
      }
      if (!prev.has(w) && w !== start) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...comp].join(", ");
}

describe("import graph", () => {
  it("finds cycles (self-check on a small graph)", () => {
    const g = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
      ["e.ts", ["e.ts"]],
    ]);
    expect(findCycles(g).sort()).toEqual(["a.ts → b.ts → c.ts → a.ts", "e.ts → e.ts"]);
  });

  it("resolves relative, extensionless, index and ~/ imports", () => {
    const graph = importGraph(sourceFiles(["app", "core", "jobs", "server", "db"]));
    expect(graph.get("server/background.ts")).toContain("app/services/platform/queue/boss.ts");
    expect(graph.get("app/routes/api.settings.ts")).toContain("app/services/trading/settings.server.ts");
    expect(graph.get("server/simulator/server.ts")).toContain("core/simulator/simulator.ts");
  });

  it("has no cycles across app/, core/, jobs/, server/, db/", () => {
    const graph = importGraph(sourceFiles(["app", "core", "jobs", "server", "db"]));
    expect(findCycles(graph)).toEqual([]);
  });
});

/**
 * The API contract as the running server serves it (GET /api/openapi.json, issue 24), and a check of a
 * recorded answer against it: the operation is found by method and path (literal paths before
 * templated ones, the query ignored), the status must be documented, and a JSON body must validate
 * against that status's schema (JSON Schema 2020-12, as OpenAPI 3.1 writes it; formats not checked).
 * A method a documented path does not serve must answer 405 with the `Error` body. Also the walk of the
 * `/api` routes the build is made of (`apiRouteFiles`: one per `app/routes/api.*` file).
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

const root = path.resolve(import.meta.dirname, "../..");

/** The parts of an OpenAPI document the check reads. */
export interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>; "x-alias-of"?: string }>>;
  components?: Record<string, unknown>;
}

/** Checks recorded answers against the document. */
export interface ContractValidator {
  doc: OpenApiDoc;
  /** The documented path template answering `method path` (query ignored), or undefined. */
  operationPath(method: string, path: string): string | undefined;
  /** What is wrong with the answer (empty: it fits the contract). */
  check(method: string, path: string, status: number, body: unknown): string[];
  /** Every JSON response schema of the document, compiled (throws on a broken `$ref`). */
  compileAll(): number;
}

/** JSON Pointer escaping of one token (RFC 6901). */
const pointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

/** A validator over `doc` (the parsed /api/openapi.json). */
export function contractValidator(doc: OpenApiDoc): ContractValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(doc as object, "openapi.json");
  // Literal paths first, then by fewer parameters: /api/trades/history before /api/trades/{id}.
  const templates = Object.keys(doc.paths)
    .map((t) => ({ t, params: (t.match(/\{/g) ?? []).length, re: new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}$`) }))
    .sort((a, b) => a.params - b.params);
  const compiled = new Map<string, ValidateFunction>();

  const operationPath = (method: string, path: string) => {
    const p = path.split("?")[0]!;
    return templates.find(({ t, re }) => re.test(p) && doc.paths[t]![method.toLowerCase()])?.t;
  };

  const validatorFor = (template: string, method: string, status: string, type: string): ValidateFunction => {
    const ref = `openapi.json#/paths/${pointer(template)}/${method}/responses/${status}/content/${pointer(type)}/schema`;
    let fn = compiled.get(ref);
    if (!fn) {
      fn = ajv.compile({ $ref: ref });
      compiled.set(ref, fn);
    }
    return fn;
  };

  return {
    doc,
    operationPath,
    check(method, path, status, body) {
      const m = method.toLowerCase();
      const template = operationPath(m, path);
      if (!template) {
        // A method the path does not serve: only the 405 with the error body is in the contract.
        const other = ["get", "post", "put", "delete", "patch"].map((x) => operationPath(x, path)).find(Boolean);
        if (!other) return [`${method} ${path}: não documentado`];
        if (status !== 405) return [`${method} ${other}: método não documentado, e a resposta não foi 405 (${status})`];
        const validate = (compiled.get("error") ?? compiled.set("error", ajv.compile({ $ref: "openapi.json#/components/schemas/Error" })).get("error"))!;
        return validate(body) ? [] : [`${method} ${other} 405: corpo não é Error`];
      }
      const responses = doc.paths[template]![m]!.responses ?? {};
      const key = String(status) in responses ? String(status) : "default" in responses ? "default" : undefined;
      if (!key) return [`${method} ${template}: status ${status} não documentado (${Object.keys(responses).join(", ")})`];
      const content = responses[key]!.content ?? {};
      if (!content["application/json"]) return typeof body === "string" || Object.keys(content).length ? [] : [`${method} ${template} ${status}: resposta sem corpo documentado`];
      const validate = validatorFor(template, m, key, "application/json");
      if (validate(body)) return [];
      return (validate.errors ?? []).map((e) => `${method} ${template} ${status}: ${e.instancePath || "/"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
    },
    compileAll() {
      let n = 0;
      for (const [template, item] of Object.entries(doc.paths))
        for (const [method, op] of Object.entries(item))
          for (const [status, r] of Object.entries(op.responses ?? {}))
            if (r.content?.["application/json"]) {
              validatorFor(template, method, status, "application/json");
              n++;
            }
      return n;
    },
  };
}

/** Fetches /api/openapi.json from a running server and builds its validator. */
export async function serverContract(baseUrl: string): Promise<ContractValidator> {
  const res = await fetch(`${baseUrl}/api/openapi.json`);
  if (res.status !== 200) throw new Error(`/api/openapi.json respondeu ${res.status}`);
  return contractValidator((await res.json()) as OpenApiDoc);
}

/**
 * The URL path of a Remix flat-routes file name, OpenAPI style: dots separate segments, `[x]` is a
 * literal, `$name` a parameter `{name}`, a lone `$` the splat, a trailing `_` opts out of nesting.
 */
export function routePath(file: string): string {
  const segments: string[] = [];
  let cur = "";
  let literal = false;
  for (const ch of file.replace(/\.(tsx?|jsx?)$/, "")) {
    if (ch === "[" || ch === "]") literal = ch === "[";
    else if (ch === "." && !literal) {
      segments.push(cur);
      cur = "";
    } else cur += ch;
  }
  segments.push(cur);
  return "/" + segments.map((s) => (s === "$" ? "*" : s.startsWith("$") ? `{${s.slice(1)}}` : s.replace(/_$/, ""))).join("/");
}

/** The `/api` routes of the build: one per `app/routes/api.*` file, the catch-all excepted. */
export function apiRouteFiles(): { file: string; path: string }[] {
  return readdirSync(path.join(root, "app/routes"))
    .filter((f) => /^api\..*\.(tsx?|jsx?)$/.test(f) && f !== "api.$.ts")
    .map((file) => ({ file, path: routePath(file) }));
}

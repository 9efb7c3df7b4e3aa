/**
 * The API contract, generated in-process (issue 24; app/route-support/openapi): the document builds
 * as OpenAPI 3.1, every `app/routes/api.*` file has its path in it, every alias of server/api-aliases.ts
 * is there under its own path, operation ids are unique, and every operation has a success answer and
 * the error body. The same walk against the running build, with the served methods and recorded
 * answers, is tests/integration/openapi-contract.test.ts.
 */
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, openApiPath } from "~/route-support/openapi/document.server";
import { API_OPERATIONS } from "~/route-support/openapi/operations.server";
import { API_ALIASES } from "../../../server/api-aliases";
import { apiRouteFiles } from "../../setup/openapi-contract";

type Op = { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> };

describe("the OpenAPI document", () => {
  const doc = buildOpenApiDocument();
  const ops = Object.entries(doc.paths ?? {}).flatMap(([p, item]) =>
    Object.entries(item as Record<string, Op>)
      .filter(([m]) => ["get", "post", "put", "delete", "patch"].includes(m))
      .map(([m, op]) => ({ label: `${m.toUpperCase()} ${p}`, op })),
  );

  it("is OpenAPI 3.1 with the error body as a component", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.components?.schemas ?? {})).toContain("Error");
  });

  it("has the path of every app/routes/api.* file", () => {
    const files = apiRouteFiles();
    expect(files.length).toBeGreaterThanOrEqual(68);
    expect(files.filter((f) => !doc.paths?.[f.path]).map((f) => `${f.path} (${f.file})`)).toEqual([]);
  });

  it("documents every alias under its own path, with its primary's operations", () => {
    for (const { alias, primary } of API_ALIASES) {
      const methods = API_OPERATIONS.filter((o) => o.path === primary).map((o) => o.method);
      expect(methods.length, primary).toBeGreaterThan(0);
      expect(Object.keys(doc.paths?.[openApiPath(alias)] ?? {}).filter((k) => !k.startsWith("x-") && k !== "parameters"), alias).toEqual(methods);
    }
  });

  it("gives each operation a unique id, a 2xx answer and the Error body for its errors", () => {
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { label, op } of ops) {
      const statuses = Object.keys(op.responses ?? {});
      expect(statuses.some((s) => s.startsWith("2")), label).toBe(true);
      expect(op.responses?.["405"]?.content?.["application/json"]?.schema?.$ref, label).toBe("#/components/schemas/Error");
    }
  });
});

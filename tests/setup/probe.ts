/**
 * Helpers shared by the authorization matrix and the fuzz tests (issue 8 "prove it stays that way"):
 * a raw HTTP client that sets any header and body, per-owner row checksums of the tables a request
 * could change, the list of route files, and a checker that a message is one of the app's
 * Portuguese texts (the pt catalogs, placeholders as wildcards) — not zod's English default.
 */
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import type postgres from "postgres";

const root = path.resolve(import.meta.dirname, "../..");

/** One reply of `rawRequest`. */
export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed JSON body, or undefined when it is not JSON. */
  json: Record<string, unknown> | undefined;
}

/**
 * A raw HTTP request (node:http, so any Content-Type, Host or body — even a broken one — can be
 * sent as a client would). `body` is sent as is (a string or bytes).
 */
export function rawRequest(base: string, method: string, p: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<RawReply> {
  const u = new URL(base + p);
  const h: Record<string, string> = { ...headers };
  if (body !== undefined) h["content-length"] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    let answered = false;
    // A fresh connection per request (no keep-alive reuse of a socket the server has closed).
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers: h, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (d: Buffer) => chunks.push(d));
      // The server may answer before reading the whole body and close the socket: the reply still counts.
      res.on("error", () => res.emit("end"));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: Record<string, unknown> | undefined;
        try {
          const v: unknown = JSON.parse(text);
          if (v && typeof v === "object" && !Array.isArray(v)) json = v as Record<string, unknown>;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, json });
      });
    });
    req.on("error", (err) => {
      if (!answered) reject(err);
    });
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** The tables whose rows a request may change, with the column that names their owner. */
export const OWNED_TABLES: ReadonlyArray<{ table: string; owner: string }> = [
  { table: "users", owner: "id" },
  { table: "trading_settings", owner: "user_id" },
  { table: "broker_connections", owner: "user_id" },
  { table: "bots", owner: "user_id" },
  { table: "trades", owner: "user_id" },
  { table: "notifications", owner: "user_id" },
  { table: "decisions", owner: "user_id" },
  { table: "push_subscriptions", owner: "user_id" },
];

/**
 * One md5 per table of `OWNED_TABLES` over its rows (all of them, or one owner's), ordered, as
 * `{table: md5}`; equal snapshots mean no row was inserted, updated or deleted in between.
 * `users.last_login_at` is left out (a login is not a change of the user's data).
 */
export async function tableChecksums(sql: postgres.Sql, ownerId?: string): Promise<Record<string, string>> {
  const parts = OWNED_TABLES.map(({ table, owner }) => {
    const row = table === "users" ? `(to_jsonb(t) - 'last_login_at')::text` : "t::text";
    const where = ownerId ? `where t.${owner} = $1` : "";
    return `select '${table}' as table, md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) as sum from ${table} t ${where}`;
  });
  const rows = await sql.unsafe<{ table: string; sum: string }[]>(parts.join(" union all "), ownerId ? [ownerId] : []);
  return Object.fromEntries(rows.map((r) => [r.table, r.sum]));
}

/** The files of app/routes (each one a route of the app), sorted. */
export function routeFiles(): string[] {
  return readdirSync(path.join(root, "app/routes"))
    .filter((f) => /\.(tsx?|jsx?)$/.test(f))
    .sort();
}

function leaves(value: unknown, out: string[]): string[] {
  if (typeof value === "string") out.push(value);
  else if (value && typeof value === "object") for (const v of Object.values(value)) leaves(v, out);
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

let ptPatterns: RegExp[] | undefined;

/**
 * Whether `text` is one of the app's Portuguese messages: a string of a pt catalog (app/i18n and
 * core/i18n locales), each `{{placeholder}}` and `$t(...)` matching any text. zod's English
 * defaults ("Invalid input: expected string…") and other languages' texts do not match.
 */
export function isPortugueseMessage(text: unknown): boolean {
  if (typeof text !== "string" || !text.trim()) return false;
  if (!ptPatterns) {
    const dirs = [path.join(root, "app/i18n/locales/pt"), path.join(root, "core/i18n/locales/pt")];
    const strings = dirs.flatMap((d) => readdirSync(d).flatMap((f) => leaves(JSON.parse(readFileSync(path.join(d, f), "utf8")), [])));
    ptPatterns = [...new Set(strings)]
      .filter((s) => s.trim().length > 3)
      .map((s) => new RegExp(`^${s.split(/\{\{[^}]*\}\}|\$t\([^)]*\)/).map(escapeRegExp).join("[\\s\\S]+?")}$`));
  }
  return ptPatterns.some((re) => re.test(text.trim()));
}

/**
 * Each table has one home (issue 23 item 2, DESIGN.md §2): the SQL that reads or writes the tables of
 * TABLES (every table of db/migrations) lives in db/queries/, so a schema change is one file. The
 * SQL is found in the string and template literals of app/, server/ and jobs/ (comments are not
 * literals), with the compiler's parser; db/queries/ imports nothing of app/, jobs/ or server/.
 */
import { describe, expect, it } from "vitest";
import ts from "typescript";
import { forEachNode, importSpecifiers, parse, resolveImport, sourceFiles } from "./source-files";

/** The tables whose statements live in db/queries/ (all of db/migrations' tables). */
const TABLES = ["bots", "decisions", "trades", "order_intents", "notifications", "email_outbox", "push_subscriptions", "push_action_tokens_used", "trading_settings", "broker_connections", "broker_cursors", "account_states", "market_candles", "calendar_events", "backtest_runs", "sessions", "email_tokens", "auth_email_requests", "login_throttle", "user_rate_limits", "users", "plans", "licenses", "license_changes", "stripe_events", "system_settings", "admin_audit_log"];

/** Where their statements live. */
const HOME = "db/queries/";

/** A statement naming one of TABLES after from / join / into / update / using / delete from / truncate / alter table. */
const TABLE_SQL = new RegExp(
  String.raw`\b(?:from|join|into|update|using|delete\s+from|truncate(?:\s+table)?|alter\s+table)\s+(?:only\s+)?(?:public\.)?"?(${TABLES.join("|")})"?(?![\w$])`,
  "gi",
);

/** The text of a string or template literal (a template's substitutions as `${}`), or undefined for any other node. */
function literalText(n: ts.Node): string | undefined {
  if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return n.text;
  if (ts.isTemplateExpression(n)) return [n.head.text, ...n.templateSpans.map((s) => s.literal.text)].join("${}");
  return undefined;
}

/** `line: table` for each statement of the file's literals that names one of TABLES (the literal's first line). */
export function tableSql(sf: ts.SourceFile): string[] {
  const hits: string[] = [];
  forEachNode(sf, (n) => {
    const text = literalText(n);
    if (text === undefined) return;
    const line = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
    for (const m of text.matchAll(TABLE_SQL)) hits.push(`${line}: ${m[1]!.toLowerCase()}`);
  });
  return hits;
}

const FILES = sourceFiles(["app", "server", "jobs"]);

describe("table homes", () => {
  it("finds the statements on the tables (self-check of the detector)", () => {
    const code = [
      "const a = sql`select * from bots where user_id = ${id}`;",
      "const b = db()`UPDATE   trades",
      "  SET units = 1`;",
      "const c = sql`with x as (select 1) insert into order_intents (a) values (${v})`;",
      "const d = sql`select d.id from users u join decisions d on d.user_id = u.id`;",
      'const e = "delete from trades where id = $1";',
      "const f = sql`select * from public.bots`;",
      "// a comment: select * from bots",
      "const g = sql`select * from bots_archive, trades_daily`;",
      "const h = 'Parar novas entradas';",
      "const i = sql`update ${t} set x = 1 from decisions`;",
    ].join("\n");
    const sf = ts.createSourceFile("probe.ts", code, ts.ScriptTarget.Latest, true);
    expect(tableSql(sf)).toEqual(["1: bots", "2: trades", "4: order_intents", "5: users", "5: decisions", "6: trades", "7: bots", "11: decisions"]);
  });

  it("catches a statement on these tables in a service (a deliberate violation)", () => {
    const code = 'import { db } from "../platform/db.server";\nexport const n = () => db()`select count(*) from trades where status = ${"open"}`;';
    expect(tableSql(ts.createSourceFile("app/services/trading/probe.server.ts", code, ts.ScriptTarget.Latest, true))).toEqual(["2: trades"]);
  });

  it(`is in ${HOME} only`, () => {
    const offenders = FILES.flatMap((f) => tableSql(parse(f)).map((hit) => `${f}:${hit}`));
    expect(offenders).toEqual([]);
    expect(sourceFiles(["db/queries"]).flatMap((f) => tableSql(parse(f))).length).toBeGreaterThan(0);
  });

  it(`${HOME} imports nothing of app/, jobs/ or server/`, () => {
    const all = sourceFiles(["app", "core", "jobs", "server", "db"]);
    const known = new Set(all);
    const upward = sourceFiles(["db/queries"]).flatMap((f) =>
      importSpecifiers(parse(f))
        .filter((s) => s.startsWith("~/") || /^(app|jobs|server)\//.test(resolveImport(f, s, known) ?? ""))
        .map((s) => `${f} → ${s}`),
    );
    expect(upward).toEqual([]);
  });
});

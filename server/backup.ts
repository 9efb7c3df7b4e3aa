/**
 * Backups that restore (issue 24): the whole database in PostgreSQL's custom archive format
 * (`pg_dump -Fc`: compressed, every schema — the app's tables and pg-boss's queue — restorable table
 * by table with `pg_restore`), and its restore into a fresh database or, with `force`, over an
 * existing one (`--clean --if-exists`). The CLI is server/cli/db-backup.ts (`npm run db:backup`,
 * `npm run db:restore`); README "Deployment" has the runbook.
 *
 * The PostgreSQL client programs come from the machine: `pg_dump` and `pg_restore` of `binDir` when
 * given, else the newest Debian/Ubuntu install under /usr/lib/postgresql/<major>/bin, else the PATH.
 * A `pg_dump` older than the server cannot copy it (it refuses a newer server): that is checked
 * first and said plainly. Passwords never reach a command line (they go to the child in PGPASSWORD).
 * Errors are `BackupError` with a Portuguese message that names the missing program or the fix.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { countActiveBots } from "../db/queries/bots";
import { countOpenTrades } from "../db/queries/trades";

/** A backup or restore that cannot go on; `message` is in Portuguese and says what to do. */
export class BackupError extends Error {
  override name = "BackupError";
}

/** The environment handed to the PostgreSQL programs (the entry point's snapshot: PATH, PG* variables). */
export type ChildEnv = Readonly<Record<string, string | undefined>>;

/** Where the client programs are looked for, besides `binDir` and the PATH. */
const DEBIAN_PG_ROOT = "/usr/lib/postgresql";

/** The tables summarised before a backup and after a restore, so an operator can compare the two. */
const SUMMARY_TABLES = [
  "users",
  "licenses",
  "broker_connections",
  "bots",
  "trades",
  "order_intents",
  "decisions",
  "notifications",
  "admin_audit_log",
  "license_changes",
  "stripe_events",
] as const;

/** Figures of one database, read in one snapshot: row counts, open trades, active bots, last migration. */
export interface DatabaseSummary {
  /** Rows per table of SUMMARY_TABLES (a table missing from the database is left out). */
  rows: Record<string, number>;
  /** Trades with status `open`, bots with `is_active`; null when the table is missing. */
  openTrades: number | null;
  activeBots: number | null;
  /** The newest applied migration (`schema_migrations`), or null. */
  lastMigration: string | null;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The path of a PostgreSQL client program (`pg_dump`, `pg_restore`).
 * @param binDir a folder given by the operator (`--pg-bin`): only that folder is searched
 * @param env the PATH searched last
 * @param debianRoot the Debian/Ubuntu versions folder (default /usr/lib/postgresql; a test points it elsewhere)
 * @throws BackupError naming the program and how to install it
 */
export function findPgProgram(name: "pg_dump" | "pg_restore", opts: { binDir?: string; env: ChildEnv; debianRoot?: string }): string {
  if (opts.binDir) {
    const file = path.resolve(opts.binDir, name);
    if (isExecutable(file)) return file;
    throw new BackupError(`Programa ${name} não encontrado em ${opts.binDir} (--pg-bin).`);
  }
  const root = opts.debianRoot ?? DEBIAN_PG_ROOT;
  const debian = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => path.join(root, v, "bin", name))
    : [];
  const onPath = (opts.env.PATH ?? "")
    .split(path.delimiter)
    .filter(Boolean)
    .map((d) => path.join(d, name));
  const found = [...debian, ...onPath].find(isExecutable);
  if (found) return found;
  throw new BackupError(
    `Programa ${name} não encontrado (cliente do PostgreSQL). Instale-o — Debian/Ubuntu: apt-get install postgresql-client; ` +
      `macOS: brew install libpq — ou indique a pasta dos binários com --pg-bin.`,
  );
}

/** Output of a finished child process. */
interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], env: ChildEnv): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (err) => reject(new BackupError(`Não foi possível executar ${file}: ${err.message}`)));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The major version of a client program (`pg_dump (PostgreSQL) 15.20 (Debian …)` → 15). */
export async function programMajor(file: string, env: ChildEnv): Promise<number> {
  const r = await run(file, ["--version"], env);
  const m = /\(PostgreSQL\)\s+(\d+)/.exec(r.stdout);
  if (r.code !== 0 || !m) throw new BackupError(`Não foi possível ler a versão de ${file}: ${(r.stderr || r.stdout).trim()}`);
  return Number(m[1]);
}

/**
 * A connection URL split for libpq: the URL without its password (safe on a command line, seen by
 * `ps`) and the password for PGPASSWORD.
 */
export function splitPassword(url: string): { url: string; password: string | undefined } {
  const u = new URL(url);
  const password = u.password ? decodeURIComponent(u.password) : undefined;
  u.password = "";
  return { url: u.toString(), password };
}

/** The database name of a URL, for messages (never the password). */
export function describeUrl(url: string): string {
  const u = new URL(url);
  return `${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
}

function childEnv(env: ChildEnv, password: string | undefined): ChildEnv {
  return password === undefined ? env : { ...env, PGPASSWORD: password };
}

async function summarise(sql: postgres.Sql | postgres.TransactionSql): Promise<DatabaseSummary> {
  const present = new Set(
    (await sql<{ name: string }[]>`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p')`).map((r) => r.name),
  );
  const rows: Record<string, number> = {};
  for (const t of SUMMARY_TABLES) {
    if (!present.has(t)) continue;
    const [r] = await sql.unsafe<{ n: number }[]>(`select count(*)::int as n from public.${t}`);
    rows[t] = r!.n;
  }
  const lastMigration = present.has("schema_migrations")
    ? ((await sql<{ name: string }[]>`select name from schema_migrations order by name desc limit 1`)[0]?.name ?? null)
    : null;
  return {
    rows,
    openTrades: present.has("trades") ? await countOpenTrades(sql) : null,
    activeBots: present.has("bots") ? await countActiveBots(sql) : null,
    lastMigration,
  };
}

/** The summary of the database at `url` (row counts, open trades, active bots, last migration). */
export async function summariseDatabase(url: string): Promise<DatabaseSummary> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await summarise(sql);
  } finally {
    await sql.end();
  }
}

/** The summary as lines of text, in Portuguese. */
export function formatSummary(s: DatabaseSummary): string {
  const lines = Object.entries(s.rows).map(([t, n]) => `  ${t.padEnd(20)} ${n}`);
  if (s.openTrades !== null) lines.push(`  ${"trades abertos".padEnd(20)} ${s.openTrades}`);
  if (s.activeBots !== null) lines.push(`  ${"robôs ativos".padEnd(20)} ${s.activeBots}`);
  lines.push(`  ${"última migração".padEnd(20)} ${s.lastMigration ?? "—"}`);
  return lines.join("\n");
}

/** Result of a backup. */
export interface BackupResult {
  file: string;
  bytes: number;
  /** The database's figures in the snapshot the archive holds. */
  summary: DatabaseSummary;
  /** Major versions of the server and of the pg_dump used. */
  serverMajor: number;
  clientMajor: number;
}

/**
 * Writes the database at `url` to `out` in custom format (`pg_dump -Fc`), consistent as of one
 * moment: the app may keep running (a repeatable-read snapshot is exported and pg_dump reads it, the
 * summary is counted in the same snapshot). The archive is written to `out.partial` and renamed
 * when complete and readable (`pg_restore --list`), so a failed run never leaves a plausible file.
 * @param out the archive's path; its folder is created
 * @param binDir folder of pg_dump/pg_restore (else found as findPgProgram says)
 * @param env environment of the child programs (PATH, PG* variables)
 * @throws BackupError when a program is missing, pg_dump is older than the server, or pg_dump fails
 */
export async function backupDatabase(opts: { url: string; out: string; binDir?: string; env: ChildEnv }): Promise<BackupResult> {
  const pgDump = findPgProgram("pg_dump", opts);
  const pgRestore = findPgProgram("pg_restore", opts);
  const clientMajor = await programMajor(pgDump, opts.env);
  const out = path.resolve(opts.out);
  const partial = `${out}.partial`;
  const { url: bareUrl, password } = splitPassword(opts.url);
  const env = childEnv(opts.env, password);
  const sql = postgres(opts.url, { max: 1, onnotice: () => {} });
  let serverMajor = 0;
  try {
    serverMajor = Math.floor(Number((await sql<{ v: string }[]>`select current_setting('server_version_num') as v`)[0]!.v) / 10_000);
    if (clientMajor < serverMajor) {
      throw new BackupError(
        `${pgDump} é da versão ${clientMajor} e o servidor PostgreSQL é ${serverMajor}: o pg_dump precisa ser da mesma versão ou mais novo. ` +
          `Instale postgresql-client-${serverMajor} (Debian/Ubuntu: repositório apt.postgresql.org) ou indique a pasta dos binários com --pg-bin.`,
      );
    }
    mkdirSync(path.dirname(out), { recursive: true });
    rmSync(partial, { force: true });
    const summary = await sql.begin("isolation level repeatable read read only", async (tx) => {
      const [snap] = await tx<{ id: string }[]>`select pg_export_snapshot() as id`;
      const figures = await summarise(tx);
      const r = await run(pgDump, ["--format=custom", "--no-password", `--snapshot=${snap!.id}`, `--file=${partial}`, `--dbname=${bareUrl}`], env);
      if (r.code !== 0) throw new BackupError(`pg_dump falhou (código ${r.code}): ${r.stderr.trim()}`);
      return figures;
    });
    const list = await run(pgRestore, ["--list", partial], env);
    if (list.code !== 0) throw new BackupError(`O arquivo gerado não pôde ser lido por ${pgRestore}: ${list.stderr.trim()}`);
    renameSync(partial, out);
    return { file: out, bytes: statSync(out).size, summary, serverMajor, clientMajor };
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    await sql.end();
  }
}

/** What the target database holds before a restore. */
export interface TargetState {
  /** Tables outside the system schemas (the app's and pg-boss's). */
  tables: number;
  /** Other sessions connected to the same database (a running app). */
  otherSessions: number;
}

/** Tables and other connected sessions of the database at `url`. */
export async function inspectTarget(url: string): Promise<TargetState> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [t] = await sql<{ n: number }[]>`select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'`;
    const [s] = await sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`;
    return { tables: t!.n, otherSessions: s!.n };
  } finally {
    await sql.end();
  }
}

/** Result of a restore. */
export interface RestoreResult {
  /** Whether the target's existing objects were dropped first (`--clean --if-exists`). */
  cleaned: boolean;
  /** The restored database's figures (compare with the backup's). */
  summary: DatabaseSummary;
}

/**
 * Restores the archive `file` (custom format) into the database at `url`, in one transaction
 * (`pg_restore --single-transaction --exit-on-error`: all or nothing), objects owned by the
 * connecting role (`--no-owner`) and no grants copied (`--no-privileges`: roles differ between
 * machines). The archive is checked to be readable before the target is touched.
 * A target that holds tables is refused unless `force` (then `--clean --if-exists` drops the archive's
 * objects first; objects the archive lacks stay); so is a target other sessions are connected to
 * (stop every app process first), unless `force`.
 * @throws BackupError when the file is missing or unreadable, a program is missing, the target is
 *   refused, or pg_restore fails (the target is then unchanged)
 */
export async function restoreDatabase(opts: { url: string; file: string; force?: boolean; binDir?: string; env: ChildEnv }): Promise<RestoreResult> {
  const file = path.resolve(opts.file);
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupError(`Arquivo de backup não encontrado: ${file}`);
  const pgRestore = findPgProgram("pg_restore", opts);
  const { url: bareUrl, password } = splitPassword(opts.url);
  const env = childEnv(opts.env, password);
  const list = await run(pgRestore, ["--list", file], env);
  if (list.code !== 0) {
    throw new BackupError(
      `${file} não é um backup legível por ${pgRestore} (formato custom de pg_dump -Fc; um arquivo de um pg_dump mais novo pede o pg_restore da mesma versão, --pg-bin): ${list.stderr.trim()}`,
    );
  }
  const target = await inspectTarget(opts.url);
  const where = describeUrl(opts.url);
  if (target.tables > 0 && !opts.force) {
    throw new BackupError(
      `O banco de destino ${where} não está vazio (${target.tables} tabelas). Restaure num banco novo (createdb) ou use --force para apagar e substituir o conteúdo.`,
    );
  }
  if (target.otherSessions > 0 && !opts.force) {
    throw new BackupError(
      `Há ${target.otherSessions === 1 ? "outra conexão aberta" : `${target.otherSessions} outras conexões abertas`} em ${where} (o app está rodando?). Pare todos os processos do app antes de restaurar, ou use --force.`,
    );
  }
  const cleaned = target.tables > 0;
  const args = ["--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", "--no-password", ...(cleaned ? ["--clean", "--if-exists"] : []), `--dbname=${bareUrl}`, file];
  const r = await run(pgRestore, args, env);
  if (r.code !== 0) throw new BackupError(`pg_restore falhou (código ${r.code}); o banco de destino não foi alterado: ${r.stderr.trim()}`);
  return { cleaned, summary: await summariseDatabase(opts.url) };
}

/**
 * `npm run db:backup -- [--out arquivo.dump] [--pg-bin pasta]`
 * `npm run db:restore -- --in arquivo.dump [--target postgres://…] [--force] [--pg-bin pasta]`
 *
 * Backup and restore of the product's database (issue 24; README "Deployment" has the runbook), on
 * DATABASE_URL or, when unset, the embedded database under DATA_DIR (as the app and `db:migrate`
 * choose it; the app must then be stopped, since one process at a time owns the embedded cluster).
 * - `backup`: `pg_dump -Fc` (custom format) of one consistent snapshot to `--out` (default
 *   `backups/forex-ia-<UTC time>.dump`), checked readable; prints the file, its size and the figures
 *   (rows per table, open trades, active bots, last migration) to compare after a restore.
 * - `restore`: `pg_restore --no-owner --no-privileges --single-transaction` of `--in` into `--target`
 *   (default: the app's database). A target holding tables, or with other sessions connected, is
 *   refused unless `--force` (then `--clean --if-exists`). Prints the restored figures.
 * The logic is server/backup.ts. Exits 1 with a Portuguese message (bad arguments, a missing pg_dump or
 * pg_restore named, a pg_dump older than the server, a refused target, a failed program).
 */
import { parseArgs } from "node:util";
import { BackupError, backupDatabase, describeUrl, formatSummary, restoreDatabase } from "../backup";
import { ConfigError, parseConfig } from "../../app/services/platform/config.server";
import { startEmbeddedPostgres, type EmbeddedDb } from "../embedded-db";
import { readEnvironment } from "../env";

const USAGE = [
  "Uso: npm run db:backup -- [--out arquivo.dump] [--pg-bin pasta]",
  "     npm run db:restore -- --in arquivo.dump [--target postgres://usuário:senha@host:5432/banco] [--force] [--pg-bin pasta]",
].join("\n");

function fail(msg: string, usage = false): never {
  console.error(`Erro: ${msg}${usage ? `\n${USAGE}` : ""}`);
  process.exit(1);
}

/** `backups/forex-ia-20260120T090000Z.dump` for the time `at`. */
export function defaultBackupPath(at: Date): string {
  return `backups/forex-ia-${at.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}.dump`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2).replace(".", ",")} MB`;
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command !== "backup" && command !== "restore") fail(`comando desconhecido '${command ?? ""}' (backup ou restore).`, true);
  let values: { out?: string; in?: string; target?: string; force?: boolean; "pg-bin"?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        out: { type: "string" },
        in: { type: "string" },
        target: { type: "string" },
        force: { type: "boolean" },
        "pg-bin": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err), true);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const env = readEnvironment();
  let cfg: ReturnType<typeof parseConfig>;
  try {
    cfg = parseConfig(env);
  } catch (err) {
    fail(err instanceof ConfigError ? err.message : String(err));
  }
  if (command === "backup" && (values.in || values.target || values.force)) fail("backup aceita só --out e --pg-bin.", true);
  if (command === "restore" && values.out) fail("restore lê de --in, não de --out.", true);
  if (command === "restore" && !values.in) fail("informe o arquivo com --in.", true);
  if (values.target !== undefined && !/^postgres(ql)?:\/\//.test(values.target)) fail("--target deve começar com postgres:// ou postgresql://", true);

  const explicit = command === "restore" ? (values.target ?? cfg.DATABASE_URL) : cfg.DATABASE_URL;
  let embedded: EmbeddedDb | undefined;
  try {
    if (!explicit) {
      console.log(`DATABASE_URL não definida: usando o banco embutido em ${cfg.DATA_DIR} (o app precisa estar parado).`);
      embedded = await startEmbeddedPostgres(cfg.DATA_DIR);
    }
    const url = explicit ?? embedded!.url;
    const binDir = values["pg-bin"];
    if (command === "backup") {
      const out = values.out ?? defaultBackupPath(new Date());
      const r = await backupDatabase({ url, out, binDir, env });
      console.log(`Backup de ${describeUrl(url)} (PostgreSQL ${r.serverMajor}, pg_dump ${r.clientMajor}) gravado em ${r.file} (${megabytes(r.bytes)}).`);
      console.log(`Conteúdo:\n${formatSummary(r.summary)}`);
    } else {
      const r = await restoreDatabase({ url, file: values.in!, force: values.force, binDir, env });
      console.log(`Backup ${values.in} restaurado em ${describeUrl(url)}${r.cleaned ? " (conteúdo anterior substituído, --force)" : ""}.`);
      console.log(`Conteúdo:\n${formatSummary(r.summary)}`);
      console.log("Confira os números com os do backup e inicie o app (ele aplica as migrações pendentes ao iniciar).");
    }
  } catch (err) {
    const msg = err instanceof BackupError ? err.message : err instanceof Error ? err.message : String(err);
    await embedded?.stop().catch(() => {});
    embedded = undefined;
    fail(msg);
  } finally {
    await embedded?.stop();
  }
}

await main();

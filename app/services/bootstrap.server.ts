/**
 * First-boot accounts (DESIGN.md §5 ADMIN_EMAIL/ADMIN_PASSWORD; issue "Accounts"): the admin from
 * the environment, or in embedded mode without it a demo admin and a demo user with a connected
 * simulator practice account, created once; their logins are returned for printing at start.
 */
import { createUser } from "./auth.server";
import { connectBroker } from "./broker.server";
import { config } from "./config.server";
import { randomToken } from "./crypto.server";
import { db } from "./db.server";
import { logger } from "./logger.server";

const DEMO_KEY = "demo_logins";

/** Creates the configured/demo accounts if absent; returns lines to print (logins) or []. */
export async function bootstrapAccounts(opts: { printLogins: boolean }): Promise<string[]> {
  const cfg = config();
  const sql = db();
  const lines: string[] = [];
  if (cfg.ADMIN_EMAIL && cfg.ADMIN_PASSWORD) {
    const email = cfg.ADMIN_EMAIL.trim().toLowerCase();
    const [exists] = await sql`select 1 from users where email = ${email}`;
    if (!exists) {
      await createUser({ email, firstName: "Admin", lastName: "", password: cfg.ADMIN_PASSWORD, role: "admin", verified: true });
      logger().info({ email }, "admin criado a partir de ADMIN_EMAIL");
    }
    return lines;
  }
  if (!opts.printLogins) return lines;

  // Embedded mode: demo logins, created once and remembered (passwords kept only in the local database).
  const [stored] = await sql<{ value: { admin: Login; user: Login } }[]>`select value from system_settings where key = ${DEMO_KEY}`;
  let logins = stored?.value;
  if (!logins) {
    logins = {
      admin: { email: "admin@demo.local", password: `Adm-${randomToken(6)}1a` },
      user: { email: "demo@demo.local", password: `Demo-${randomToken(6)}1a` },
    };
    await sql.begin(async (tx) => {
      await tx`insert into system_settings (key, value) values (${DEMO_KEY}, ${tx.json(logins as never)}) on conflict do nothing`;
    });
    await createUser({ ...logins.admin, firstName: "Admin", lastName: "Demo", role: "admin", verified: true }).catch(ignoreExisting);
    const user = await createUser({ ...logins.user, firstName: "Usuário", lastName: "Demo", verified: true }).catch(ignoreExisting);
    if (user && cfg.OANDA_MODE === "sim") {
      try {
        const res = await fetch(`${new URL(cfg.oanda.practice.api).origin}${new URL(cfg.oanda.practice.api).pathname.replace(/\/practice$/, "")}/sim/users`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ environment: "practice", accounts: [{ currency: "USD", balance: "100000" }] }),
        });
        const sim = (await res.json()) as { token: string; accounts: { id: string }[] };
        await connectBroker(user.id, { token: sim.token, environment: "practice", accountId: sim.accounts[0]!.id });
      } catch (err) {
        logger().warn({ err }, "não foi possível conectar a conta demo ao simulador");
      }
    }
  }
  lines.push(`Login admin demo:   ${logins.admin.email}  /  ${logins.admin.password}`);
  lines.push(`Login usuário demo: ${logins.user.email}  /  ${logins.user.password}  (conta prática do simulador conectada)`);
  return lines;
}

interface Login {
  email: string;
  password: string;
}

function ignoreExisting(err: unknown) {
  if (err instanceof Error && /já está cadastrado/.test(err.message)) return undefined;
  throw err;
}

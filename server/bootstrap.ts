/**
 * First-boot accounts (DESIGN.md §5 ADMIN_EMAIL/ADMIN_PASSWORD; issue "Accounts"): the admin from
 * the environment, or in embedded mode without it a demo admin and a demo user with a connected
 * simulator practice account, created once; their logins are returned for printing at start.
 * Embedded mode also seeds the demo plan ("Mensal", R$ 97,00 a month) when no plan exists (issue 9).
 */
import { createUser } from "../app/services/identity/auth.server";
import { connectBroker } from "../app/services/trading/broker-link.server";
import { config } from "../app/services/platform/config.server";
import { decryptSecret, encryptSecret, randomToken } from "../app/services/platform/crypto.server";
import { db } from "../app/services/platform/db.server";
import { logger } from "../app/services/platform/logger.server";
import { seedDemoPlan } from "../app/services/billing/plans.server";
import { insertSettingIfAbsent, settingValue, updateSettingValue } from "../db/queries/system-settings";
import { emailExists } from "../db/queries/users";

const DEMO_KEY = "demo_logins";

/** Creates the configured/demo accounts if absent; returns lines to print (logins) or []. */
export async function bootstrapAccounts(opts: { printLogins: boolean }): Promise<string[]> {
  const cfg = config();
  const sql = db();
  const lines: string[] = [];
  // Embedded mode (with or without ADMIN_EMAIL): a plan to subscribe to, unless one exists.
  if (opts.printLogins && (await seedDemoPlan())) logger().info("plano demo criado (Mensal, R$ 97,00/mês)");
  if (cfg.ADMIN_EMAIL && cfg.ADMIN_PASSWORD) {
    const email = cfg.ADMIN_EMAIL.trim().toLowerCase();
    if (!(await emailExists(sql, email))) {
      await createUser({ email, firstName: "Admin", lastName: "", password: cfg.ADMIN_PASSWORD, role: "admin", verified: true });
      logger().info({ email }, "admin criado a partir de ADMIN_EMAIL");
    }
    return lines;
  }
  if (!opts.printLogins) return lines;

  // Embedded mode: demo logins, created once and remembered in the local database with the
  // passwords encrypted (APP_SECRET's key, as broker tokens), so each start can print them again.
  const storedValue = await settingValue<StoredLogins | LegacyLogins>(sql, DEMO_KEY);
  const stored = storedValue === undefined ? undefined : { value: storedValue };
  let logins = stored ? readLogins(stored.value) : undefined;
  if (stored && "password" in stored.value.admin) {
    await updateSettingValue(sql, DEMO_KEY, storeLogins(logins!));
  }
  if (!logins) {
    const fresh = {
      admin: { email: "admin@demo.local", password: `Adm-${randomToken(6)}1a` },
      user: { email: "demo@demo.local", password: `Demo-${randomToken(6)}1a` },
    };
    logins = fresh;
    await sql.begin(async (tx) => {
      await insertSettingIfAbsent(tx, DEMO_KEY, storeLogins(fresh));
    });
    await createUser({ ...fresh.admin, firstName: "Admin", lastName: "Demo", role: "admin", verified: true }).catch(ignoreExisting);
    const user = await createUser({ ...fresh.user, firstName: "Usuário", lastName: "Demo", verified: true }).catch(ignoreExisting);
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

/** The demo logins as stored: passwords encrypted (issue 8: no plain-text password in a table). */
interface StoredLogins {
  admin: { email: string; passwordEncrypted: string };
  user: { email: string; passwordEncrypted: string };
}
/** What earlier versions stored (plain passwords); rewritten encrypted on the next start. */
interface LegacyLogins {
  admin: Login;
  user: Login;
}

function storeLogins(l: { admin: Login; user: Login }): StoredLogins {
  const enc = (x: Login) => ({ email: x.email, passwordEncrypted: encryptSecret(x.password) });
  return { admin: enc(l.admin), user: enc(l.user) };
}

function readLogins(v: StoredLogins | LegacyLogins): { admin: Login; user: Login } {
  const dec = (x: Login | { email: string; passwordEncrypted: string }): Login =>
    "password" in x ? x : { email: x.email, password: decryptSecret(x.passwordEncrypted) };
  return { admin: dec(v.admin), user: dec(v.user) };
}

function ignoreExisting(err: unknown) {
  if (err instanceof Error && /já está cadastrado/.test(err.message)) return undefined;
  throw err;
}

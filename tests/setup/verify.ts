/**
 * For tests whose subject is not e-mail: marks a registered user's e-mail verified straight in the
 * database (the real flow — e-mail, link — is covered by tests/integration/email-flow.test.ts).
 */
import postgres from "postgres";

/** Sets email_verified_at for `email` in the database at `databaseUrl`. */
export async function markVerified(databaseUrl: string, email: string): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`update users set email_verified_at = now() where email = ${email.trim().toLowerCase()} returning id`;
    if (!rows.length) throw new Error(`usuário ${email} não encontrado para verificar`);
  } finally {
    await sql.end();
  }
}

/** Registers through the API, verifies through the database and logs in; returns the login body. */
export async function registerVerifiedAndLogin<T = { token: string; user: { id: string } }>(
  baseUrl: string,
  databaseUrl: string,
  person: { firstName: string; lastName: string; email: string; password: string },
): Promise<T> {
  const post = (p: string, body: unknown) =>
    fetch(baseUrl + p, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const reg = await post("/api/auth/register", person);
  if (reg.status !== 201) throw new Error(`cadastro falhou (${reg.status}): ${await reg.text()}`);
  await markVerified(databaseUrl, person.email);
  const login = await post("/api/auth/login", { email: person.email, password: person.password });
  const body = (await login.json()) as T & { success?: boolean };
  if (login.status !== 200 || body.success === false) throw new Error(`login falhou (${login.status}): ${JSON.stringify(body)}`);
  return body;
}

/** Boot and shutdown: bad configuration stops the boot naming the variable; SIGTERM shuts down in order. */
import { describe, expect, it } from "vitest";
import { apiClient, startAppServer } from "../setup/app-server";
import { createTestDatabase } from "../setup/db";

describe("boot", () => {
  it("refuses to start with a bad SIM_SPEED and says which variable", async () => {
    await expect(startAppServer({ SIM_SPEED: "rápido", DATABASE_URL: "postgres://127.0.0.1:1/none" }, 30_000)).rejects.toThrow(/SIM_SPEED:/);
  });

  it("stops cleanly on SIGTERM: HTTP closed, workers stopped, exit code 0", async () => {
    const db = await createTestDatabase();
    try {
      const app = await startAppServer({ DATABASE_URL: db.url });
      expect((await fetch(`${app.url}/health`)).status).toBe(200);
      const code = await app.stop();
      expect(code).toBe(0);
      expect(app.output()).toMatch(/SIGTERM recebido: encerrando\.\.\.[\s\S]*encerrado\./);
      await expect(fetch(`${app.url}/health`)).rejects.toThrow();
    } finally {
      await db.drop();
    }
  });

  it("creates the admin from ADMIN_EMAIL/ADMIN_PASSWORD once, with the admin role", async () => {
    const db = await createTestDatabase();
    try {
      const env = { DATABASE_URL: db.url, WORKERS: "off", ADMIN_EMAIL: "Chefe@Exemplo.com", ADMIN_PASSWORD: "Admin1234" };
      for (let run = 0; run < 2; run++) {
        const app = await startAppServer(env);
        const login = await apiClient(app.url)<{ user: { role: string; licenseStatus: string; hasValidLicense: boolean } }>("POST", "/api/auth/login", {
          email: "chefe@exemplo.com",
          password: "Admin1234",
        });
        expect(login.status).toBe(200);
        expect(login.body.user).toMatchObject({ role: "admin", licenseStatus: "admin", hasValidLicense: true });
        await app.stop();
      }
      const rows = await db.sql`select role from users`;
      expect(rows).toEqual([{ role: "admin" }]);
    } finally {
      await db.drop();
    }
  });
});

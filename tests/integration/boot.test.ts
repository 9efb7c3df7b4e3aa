/** Boot and shutdown: bad configuration stops the boot naming the variable; SIGTERM shuts down in order. */
import { describe, expect, it } from "vitest";
import { startAppServer } from "../setup/app-server";
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
});

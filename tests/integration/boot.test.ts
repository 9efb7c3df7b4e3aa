/** Boot: a bad configuration stops the process with a message naming the variable. */
import { describe, expect, it } from "vitest";
import { startAppServer } from "../setup/app-server";

describe("boot", () => {
  it("refuses to start with a bad SIM_SPEED and says which variable", async () => {
    await expect(startAppServer({ SIM_SPEED: "rápido", DATABASE_URL: "postgres://127.0.0.1:1/none" }, 30_000)).rejects.toThrow(/SIM_SPEED:/);
  });
});

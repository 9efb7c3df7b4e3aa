/** Configuration is validated once at boot; a bad value names its variable (DESIGN.md §5). */
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../../app/services/config.server";

describe("parseConfig", () => {
  it("applies the documented defaults", () => {
    const c = parseConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.HOST).toBe("127.0.0.1");
    expect(c.APP_URL).toBe("http://localhost:3000");
    expect(c.DATA_DIR).toBe("./.data");
    expect(c.OANDA_MODE).toBe("sim");
    expect(c.SIM_SPEED).toBe(1);
    expect(c.SIM_PORT).toBe(4001);
    expect(c.WORKERS).toBe("on");
    expect(c.LOG_LEVEL).toBe("info");
    expect(c.oanda.practice.api).toBe("http://127.0.0.1:3000/oanda-sim/practice");
  });

  it("points mode oanda at OANDA's real hosts unless overridden", () => {
    const c = parseConfig({ OANDA_MODE: "oanda", OANDA_LIVE_API_URL: "http://127.0.0.1:9/live" });
    expect(c.oanda.practice.api).toBe("https://api-fxpractice.oanda.com");
    expect(c.oanda.practice.stream).toBe("https://stream-fxpractice.oanda.com");
    expect(c.oanda.live.api).toBe("http://127.0.0.1:9/live");
  });

  it.each([
    ["PORT", "abc"],
    ["OANDA_MODE", "paper"],
    ["SIM_SPEED", "-2"],
    ["WORKERS", "maybe"],
    ["ENCRYPTION_KEY", "short"],
    ["DATABASE_URL", "mysql://x"],
    ["ADMIN_EMAIL", "not-an-email"],
  ])("names %s when its value (%s) is bad", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });

  it("requires the secrets in production", () => {
    expect(() => parseConfig({ NODE_ENV: "production" })).toThrow(/SESSION_SECRET: obrigatório/);
  });

  it("treats empty strings as unset", () => {
    expect(parseConfig({ PORT: "" }).PORT).toBe(3000);
  });
});

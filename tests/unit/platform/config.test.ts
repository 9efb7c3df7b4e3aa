/** Configuration is validated once at boot; a bad value names its variable (DESIGN.md §5). */
import { describe, expect, it } from "vitest";
import { afterEach } from "vitest";
import { ConfigError, config, parseConfig, setConfig, withRuntime } from "../../../app/services/platform/config.server";
import { mergeOperatorIdentity, operatorBootError } from "../../../app/services/platform/operator-boot";

/** A configured operator identity (issue 22 item 10). */
const OPERATOR = {
  OPERATOR_COMPANY: "Forex IA Tecnologia Ltda.",
  OPERATOR_CNPJ: "12.345.678/0001-90",
  OPERATOR_ADDRESS: "Av. Paulista, 1000, São Paulo - SP",
  OPERATOR_DPO_NAME: "Maria Encarregada",
  OPERATOR_DPO_EMAIL: "dpo@forexia.com.br",
  SUPPORT_EMAIL: "suporte@forexia.com.br",
};

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

  it("refuses the embedded simulator in production (issue 8 item 3)", () => {
    const prod = { NODE_ENV: "production", SESSION_SECRET: "s".repeat(32), ENCRYPTION_KEY: "a".repeat(64) };
    expect(() => parseConfig(prod)).toThrow(/OANDA_MODE: defina OANDA_MODE=oanda quando NODE_ENV=production/);
    expect(() => parseConfig({ ...prod, OANDA_MODE: "sim" })).toThrow(ConfigError);
    expect(parseConfig({ ...prod, ...OPERATOR, OANDA_MODE: "oanda" }).OANDA_MODE).toBe("oanda");
    expect(parseConfig({ NODE_ENV: "test" }).OANDA_MODE).toBe("sim");
  });

  it("refuses to serve the legal pages' placeholders in production: the operator's identity is configuration, environment or stored (issue 22 item 10)", () => {
    const prod = { NODE_ENV: "production", SESSION_SECRET: "s".repeat(32), ENCRYPTION_KEY: "a".repeat(64), OANDA_MODE: "oanda" };
    // Nothing in the environment and nothing stored: boot refuses, naming every missing variable.
    const bare = parseConfig(prod);
    expect(operatorBootError(mergeOperatorIdentity({}, bare))).toMatch(
      /OPERATOR_COMPANY, OPERATOR_CNPJ, OPERATOR_ADDRESS, OPERATOR_DPO_NAME, OPERATOR_DPO_EMAIL, SUPPORT_EMAIL: obrigatórios quando NODE_ENV=production.*Admin → Configurações/s,
    );
    const { SUPPORT_EMAIL: _s, ...withoutSupport } = OPERATOR;
    expect(operatorBootError(mergeOperatorIdentity({}, parseConfig({ ...prod, ...withoutSupport })))).toMatch(/^Configuração inválida:\n {2}SUPPORT_EMAIL: obrigatórios/);
    // The missing field stored by an admin completes it; the environment wins over the stored value.
    const merged = mergeOperatorIdentity({ supportEmail: "ajuda@forexia.com.br", company: "Outra Ltda." }, parseConfig({ ...prod, ...withoutSupport }));
    expect(operatorBootError(merged)).toBeNull();
    expect(merged).toMatchObject({ supportEmail: "ajuda@forexia.com.br", company: "Forex IA Tecnologia Ltda." });
    expect(() => parseConfig({ ...prod, ...OPERATOR, OPERATOR_CNPJ: "123" })).toThrow(/OPERATOR_CNPJ: CNPJ com 14 dígitos/);
    expect(operatorBootError(mergeOperatorIdentity({}, parseConfig({ ...prod, ...OPERATOR })))).toBeNull();
    expect(mergeOperatorIdentity({}, parseConfig({ NODE_ENV: "test" })).company).toBeNull(); // outside production the pages show marked placeholders
  });

  it("treats empty strings as unset", () => {
    expect(parseConfig({ PORT: "" }).PORT).toBe(3000);
  });

  it("reads AUTH_RATE_LIMIT (default 20) and names it when bad", () => {
    expect(parseConfig({}).AUTH_RATE_LIMIT).toBe(20);
    expect(parseConfig({ AUTH_RATE_LIMIT: "1000" }).AUTH_RATE_LIMIT).toBe(1000);
    expect(() => parseConfig({ AUTH_RATE_LIMIT: "0" })).toThrow(/AUTH_RATE_LIMIT:/);
  });
});

describe("TRUST_PROXY (issue 8 item 9)", () => {
  it("defaults to loopback and accepts false, a hop count, addresses and subnets", () => {
    expect(parseConfig({}).TRUST_PROXY).toBe("loopback");
    expect(parseConfig({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
    expect(parseConfig({ TRUST_PROXY: "0" }).TRUST_PROXY).toBe(false);
    expect(parseConfig({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(parseConfig({ TRUST_PROXY: " Loopback, 10.0.0.0/8 ,192.168.1.7, fd00::/8 " }).TRUST_PROXY).toBe("loopback,10.0.0.0/8,192.168.1.7,fd00::/8");
  });

  it.each(["true", "*", "11", "10.0.0.0/33", "proxy.example.com", "loopback,,abc", "1.2.3"])("refuses %s and names the variable", (value) => {
    expect(() => parseConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    expect(() => parseConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY:/);
  });
});

describe("withRuntime: values only the running process knows (ADR 0009)", () => {
  it("mode sim: the bound port gives PORT, APP_URL and the simulator's OANDA URLs", () => {
    const c = withRuntime(parseConfig({ PORT: "0" }), { port: 43123 });
    expect(c.PORT).toBe(43123);
    expect(c.APP_URL).toBe("http://localhost:43123");
    expect(c.oanda).toEqual({
      practice: { api: "http://127.0.0.1:43123/oanda-sim/practice", stream: "http://127.0.0.1:43123/oanda-sim/practice" },
      live: { api: "http://127.0.0.1:43123/oanda-sim/live", stream: "http://127.0.0.1:43123/oanda-sim/live" },
    });
  });

  it("keeps what the environment set: APP_URL, OANDA URLs, DATABASE_URL, secrets", () => {
    const given = parseConfig({
      APP_URL: "https://forex.example.com",
      OANDA_PRACTICE_API_URL: "http://127.0.0.1:9/practice",
      DATABASE_URL: "postgres://db/app",
      SESSION_SECRET: "a-session-secret-from-env",
    });
    const c = withRuntime(given, { port: 5000, databaseUrl: "postgres://embedded/x", sessionSecret: "local-secret-from-data-dir", encryptionKey: "ab".repeat(32) });
    expect(c.APP_URL).toBe("https://forex.example.com");
    expect(c.oanda.practice.api).toBe("http://127.0.0.1:9/practice");
    expect(c.oanda.practice.stream).toBe("http://127.0.0.1:5000/oanda-sim/practice");
    expect(c.DATABASE_URL).toBe("postgres://db/app");
    expect(c.SESSION_SECRET).toBe("a-session-secret-from-env");
    expect(c.ENCRYPTION_KEY).toBe("ab".repeat(32));
  });

  it("embedded mode: the embedded database's URL fills an unset DATABASE_URL", () => {
    const c = withRuntime(parseConfig({}), { port: 3000, databaseUrl: "postgres://postgres:postgres@127.0.0.1:5555/forex_ia" });
    expect(c.DATABASE_URL).toBe("postgres://postgres:postgres@127.0.0.1:5555/forex_ia");
    expect(c.given.DATABASE_URL).toBeUndefined();
  });

  it("mode oanda: real hosts whatever the port", () => {
    const c = withRuntime(parseConfig({ OANDA_MODE: "oanda" }), { port: 4567 });
    expect(c.oanda.live).toEqual({ api: "https://api-fxtrade.oanda.com", stream: "https://stream-fxtrade.oanda.com" });
  });

  it("is frozen: nothing changes it after boot", () => {
    const c = withRuntime(parseConfig({}), { port: 1 });
    expect(Object.isFrozen(c)).toBe(true);
    expect(() => Object.assign(c, { PORT: 2 })).toThrow(TypeError);
  });
});

describe("config(): what boot handed over", () => {
  afterEach(() => {
    globalThis.__forexIaConfig = undefined;
  });

  it("throws before setConfig (nobody falls back to the environment)", () => {
    globalThis.__forexIaConfig = undefined;
    expect(() => config()).toThrow(/setConfig/);
  });

  it("returns the config set at boot", () => {
    const c = withRuntime(parseConfig({ WORKERS: "off" }), { port: 8080 });
    setConfig(c);
    expect(config()).toBe(c);
    expect(config().APP_URL).toBe("http://localhost:8080");
  });
});

/**
 * Plans (issue 9; PRODUCT.md §3 Plan, §7 `GET /api/plans/active`, §9) and the public legal pages
 * (§2 /termos, /privacidade), on the real server (production build) and a real database:
 * - migration 0010: features are text[], intervals month|year, ISO currencies, whole cents;
 * - the API lists active plans only, cheapest first, in the §3 shape (price in cents, BRL pt-BR and
 *   others en-US, the interval in the caller's language), the highlighted one as default; public;
 *   GET only (405 with Allow otherwise);
 * - embedded mode's demo plan is seeded once, only on a database without any plan, even when several
 *   processes start at once;
 * - /termos and /privacidade answer 200 to anyone, in the reader's language, with the key points and
 *   the marked placeholders.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig, setConfig } from "../../app/services/platform/config.server";
import { closeDb } from "../../app/services/platform/db.server";
import { DEMO_PLAN, seedDemoPlan } from "../../app/services/billing/plans.server";
import type { AppServer } from "../setup/app-server";
import { createTestDatabase, type TestDatabase } from "../setup/db";
import { rawRequest } from "../setup/probe";
import { createTradingEnv, type TradingEnv } from "../setup/trading-env";
import { registerVerifiedAndLogin } from "../setup/verify";

let env: TradingEnv;
let app: AppServer;
let seedDb: TestDatabase;
let enToken: string;
const ids: Record<string, string> = {};

interface PlanJson {
  _id: string;
  id: string;
  name: string;
  description: string;
  price: number;
  currency: string;
  durationDays: number;
  interval: string;
  intervalCount: number;
  features: string[];
  isHighlighted: boolean;
  isDefault: boolean;
  formattedPrice: string;
  formattedDuration: string;
}

async function insertPlan(p: { name: string; cents: number; currency?: string; interval?: string; count?: number; features?: string[]; highlighted?: boolean; active?: boolean; days?: number }) {
  const [row] = await env.db.sql<{ id: string }[]>`
    insert into plans (name, description, price_cents, currency, duration_days, interval, interval_count, features, is_highlighted, is_active, stripe_price_id)
    values (${p.name}, ${`Plano ${p.name}`}, ${p.cents}, ${p.currency ?? "BRL"}, ${p.days ?? 30}, ${p.interval ?? "month"}, ${p.count ?? 1},
            ${p.features ?? ["A", "B"]}, ${p.highlighted ?? false}, ${p.active ?? true}, ${`price_${p.name}`})
    returning id`;
  ids[p.name] = row!.id;
}

const getPlans = async (token?: string) => {
  const r = await rawRequest(app.url, "GET", "/api/plans/active", { accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) });
  return { status: r.status, plans: (r.json?.plans ?? []) as PlanJson[], json: r.json, headers: r.headers };
};

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp();
  await insertPlan({ name: "Anual", cents: 97000, interval: "year", days: 365 });
  await insertPlan({ name: "Mensal", cents: 9700, highlighted: true, features: ["Trading automatizado com IA", "Análise de mercado em tempo real", "Gestão de risco avançada", "Notificações push personalizadas", "Suporte prioritário"] });
  await insertPlan({ name: "Trimestral", cents: 27000, count: 3, days: 90 });
  await insertPlan({ name: "Dolar", cents: 1999, currency: "USD" });
  await insertPlan({ name: "Antigo", cents: 100, active: false });
  const en = await registerVerifiedAndLogin(app.url, env.db.url, { firstName: "Ann", lastName: "Lee", email: `plans-en-${Date.now()}@teste.com`, password: "Senha123" });
  await env.db.sql`update users set preferences = coalesce(preferences, '{}'::jsonb) || ${env.db.sql.json({ language: "en" })} where id = ${en.user.id}`;
  enToken = en.token;

  seedDb = await createTestDatabase();
  setConfig(parseConfig({ DATABASE_URL: seedDb.url, NODE_ENV: "test", LOG_LEVEL: "silent" }));
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await env?.close();
  await closeDb();
  globalThis.__forexIaConfig = undefined;
  await seedDb?.drop();
});

describe("migration 0010: the plans table", () => {
  it("features are text[]; interval, currency, price and name are checked", async () => {
    const [col] = await env.db.sql<{ data_type: string }[]>`select data_type from information_schema.columns where table_name = 'plans' and column_name = 'features'`;
    expect(col!.data_type).toBe("ARRAY");
    const cols = (await env.db.sql<{ column_name: string }[]>`select column_name from information_schema.columns where table_name = 'plans'`).map((c) => c.column_name);
    expect(cols).toEqual(expect.arrayContaining(["stripe_product_id", "stripe_price_id", "updated_at", "is_active", "is_highlighted", "duration_days", "interval_count"]));
    const bad = [
      env.db.sql`insert into plans (name, price_cents, interval) values ('x', 100, 'week')`,
      env.db.sql`insert into plans (name, price_cents, currency) values ('x', 100, 'real')`,
      env.db.sql`insert into plans (name, price_cents) values ('x', -1)`,
      env.db.sql`insert into plans (name, price_cents) values ('  ', 100)`,
      env.db.sql`insert into plans (name, price_cents, interval_count) values ('x', 100, 0)`,
      env.db.sql`insert into plans (name, price_cents, stripe_price_id) values ('x', 100, 'price_Mensal')`,
    ];
    for (const q of bad) await expect(q).rejects.toThrow();
  });
});

describe("GET /api/plans/active", () => {
  it("public: active plans only, cheapest first, §3 shape, the highlighted one default", async () => {
    const r = await getPlans();
    expect(r.status).toBe(200);
    expect(r.json?.success).toBe(true);
    expect(r.headers["cache-control"]).toBe("no-store");
    expect(r.plans.map((p) => p.name)).toEqual(["Dolar", "Mensal", "Trimestral", "Anual"]);
    const mensal = r.plans.find((p) => p.name === "Mensal")!;
    expect(mensal).toEqual({
      _id: ids.Mensal,
      id: ids.Mensal,
      name: "Mensal",
      description: "Plano Mensal",
      price: 9700,
      currency: "BRL",
      durationDays: 30,
      interval: "month",
      intervalCount: 1,
      features: ["Trading automatizado com IA", "Análise de mercado em tempo real", "Gestão de risco avançada", "Notificações push personalizadas", "Suporte prioritário"],
      isHighlighted: true,
      isDefault: true,
      formattedPrice: "R$ 97,00",
      formattedDuration: "mês",
    });
    expect(r.plans.filter((p) => p.isDefault).map((p) => p.name)).toEqual(["Mensal"]);
    const by = Object.fromEntries(r.plans.map((p) => [p.name, p]));
    expect([by.Anual!.formattedPrice, by.Anual!.formattedDuration, by.Anual!.interval]).toEqual(["R$ 970,00", "ano", "year"]);
    expect([by.Trimestral!.formattedDuration, by.Trimestral!.intervalCount]).toEqual(["3 meses", 3]);
    expect(by.Dolar!.formattedPrice).toBe("$19.99");
    // No Stripe ids or admin ids in the public list.
    expect(JSON.stringify(r.json)).not.toMatch(/price_|stripe|createdBy/);
  });

  it("the duration follows the caller's language; the price format follows the currency only", async () => {
    const r = await getPlans(enToken);
    expect(r.status).toBe(200);
    const by = Object.fromEntries(r.plans.map((p) => [p.name, p]));
    expect([by.Mensal!.formattedPrice, by.Mensal!.formattedDuration]).toEqual(["R$ 97,00", "month"]);
    expect(by.Trimestral!.formattedDuration).toBe("3 months");
    expect(by.Anual!.formattedDuration).toBe("year");
  });

  it("no highlighted plan → the first is default; no active plan → empty list", async () => {
    await env.db.sql`update plans set is_highlighted = false`;
    expect((await getPlans()).plans.filter((p) => p.isDefault).map((p) => p.name)).toEqual(["Dolar"]);
    await env.db.sql`update plans set is_active = false`;
    const empty = await getPlans();
    expect([empty.status, empty.plans]).toEqual([200, []]);
    await env.db.sql`update plans set is_active = (name <> 'Antigo'), is_highlighted = (name = 'Mensal')`;
  });

  it("GET only: other methods → 405 JSON with Allow, in Portuguese", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const r = await rawRequest(app.url, method, "/api/plans/active", { accept: "application/json", "content-type": "application/json" }, "{}");
      expect(r.status, method).toBe(405);
      expect(r.headers.allow).toBe("GET, HEAD");
      expect(r.json?.message).toBe(`Método ${method} não permitido.`);
    }
  });
});

describe("embedded mode's demo plan", () => {
  it("seeded once on an empty table (even with 5 concurrent starts), 'Mensal' R$ 97,00/mês, highlighted, 4 features", async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => seedDemoPlan()));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await seedDemoPlan()).toBe(false);
    const rows = await seedDb.sql`select name, price_cents, currency, interval, interval_count, duration_days, features, is_highlighted, is_active from plans`;
    expect(rows).toEqual([
      { name: "Mensal", price_cents: 9700, currency: "BRL", interval: "month", interval_count: 1, duration_days: 30, features: DEMO_PLAN.features, is_highlighted: true, is_active: true },
    ]);
    expect(DEMO_PLAN.features).toHaveLength(4);
  });

  it("not re-created while any plan row exists (even inactive); seeded again only on an empty table", async () => {
    await seedDb.sql`update plans set is_active = false`;
    expect(await seedDemoPlan()).toBe(false);
    expect((await seedDb.sql`select count(*)::int as n from plans`)[0]!.n).toBe(1);
    await seedDb.sql`delete from plans`;
    expect(await seedDemoPlan()).toBe(true);
  });
});

describe("/termos and /privacidade", () => {
  const page = async (p: string, token?: string) => {
    const res = await fetch(app.url + p, { headers: { accept: "text/html", ...(token ? { authorization: `Bearer ${token}` } : {}) }, redirect: "manual" });
    return { status: res.status, html: (await res.text()).replace(/<!-- -->/g, "") };
  };

  it("public, Portuguese by default: key points, the accepted terms with their version, placeholders, links", async () => {
    const r = await page("/termos");
    expect(r.status).toBe(200);
    expect(r.html).toContain("<title>Termos de Uso — Forex IA</title>");
    expect(r.html).toContain("Operar no mercado de câmbio (forex) envolve risco de perda.");
    expect(r.html).toContain("Resultados passados, backtests e simulações não garantem resultados futuros.");
    expect(r.html).toContain("Você mantém o controle da sua conta na corretora");
    expect(r.html).toContain("1. Aceitação dos Termos");
    expect(r.html).toContain("10. Contato");
    expect(r.html).toContain("Versão 2026-01");
    expect(r.html).toContain("[RAZÃO SOCIAL — a definir]");
    expect(r.html).toContain("[CNPJ — a definir]");
    expect(r.html).toContain('href="/privacidade"');
    expect(r.html).toContain('name="viewport"');
  });

  it("/privacidade: LGPD, rights, DPO placeholders", async () => {
    const r = await page("/privacidade");
    expect(r.status).toBe(200);
    expect(r.html).toContain("<title>Política de Privacidade — Forex IA</title>");
    expect(r.html).toContain("Lei Geral de Proteção de Dados");
    expect(r.html).toContain("8. Seus direitos");
    expect(r.html).toContain("[E-MAIL DO ENCARREGADO — a definir]");
    expect(r.html).not.toContain("{{");
    expect(r.html).toContain('href="/termos"');
  });

  it("with the operator configured (environment), the pages name it and show no placeholder (issue 22 item 10)", async () => {
    const app2 = await env.startApp({ OPERATOR_COMPANY: "Forex IA Tecnologia Ltda.", OPERATOR_CNPJ: "12.345.678/0001-90", OPERATOR_ADDRESS: "Av. Paulista, 1000, São Paulo - SP", OPERATOR_DPO_NAME: "Maria Encarregada", OPERATOR_DPO_EMAIL: "dpo@forexia.com.br", SUPPORT_EMAIL: "suporte@forexia.com.br" });
    try {
      const terms = await (await fetch(`${app2.url}/termos`, { headers: { accept: "text/html" } })).text();
      expect(terms).toContain("A Forex IA é oferecida por Forex IA Tecnologia Ltda., CNPJ 12.345.678/0001-90, Av. Paulista, 1000, São Paulo - SP. Suporte: suporte@forexia.com.br.");
      expect(terms).not.toContain("a definir");
      const privacy = await (await fetch(`${app2.url}/privacidade`, { headers: { accept: "text/html" } })).text();
      expect(privacy).toContain("dpo@forexia.com.br");
      expect(privacy).toContain("Maria Encarregada");
      expect(privacy).not.toContain("a definir");
    } finally {
      await app2.stop();
    }
  });

  it("in the signed-in reader's language", async () => {
    const terms = await page("/termos", enToken);
    expect(terms.status).toBe(200);
    expect(terms.html).toContain("<title>Terms of Use — Forex IA</title>");
    expect(terms.html).toContain("Trading foreign exchange (forex) involves a risk of loss.");
    expect(terms.html).toContain("[COMPANY NAME — to be defined]");
    const privacy = await page("/privacidade", enToken);
    expect(privacy.html).toContain("8. Your rights");
  });
});

/**
 * Issue 22 item 11c (PRODUCT.md §2 Plans, §3 Plan isHighlighted, §9 "Default plan: highlighted, else
 * first"): at most one plan is highlighted. Highlighting a plan through the admin API (create or edit)
 * clears the others in the same transaction, also when two admins highlight at once; the public list
 * (GET /api/plans/active, the plans/billing screens) marks one plan even over older rows with two.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripeSimulator } from "../../server/stripe-sim";
import { apiClient, type AppServer } from "../setup/app-server";
import { createTradingEnv, type TradingEnv } from "../setup/trading-env";

const SECRET_KEY = "sk_test_plan_highlight_it";
const WEBHOOK_SECRET = "whsec_plan_highlight_it";
const ADMIN = { email: "admin-destaque@teste.com", password: "Admin1234" };

let env: TradingEnv;
let app: AppServer;
let sim: Awaited<ReturnType<typeof startStripeSimulator>>;
let admin: ReturnType<typeof apiClient>;

interface Plan {
  id: string;
  name: string;
  isHighlighted: boolean;
  isDefault?: boolean;
}

const BASE = { description: "Plano", price: 9700, features: ["IA"] };

beforeAll(async () => {
  env = await createTradingEnv({ speed: 0 });
  sim = await startStripeSimulator({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  app = await env.startApp({ WORKERS: "off", STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: sim.url, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  const res = await fetch(`${app.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
  expect(res.status).toBe(200);
  admin = apiClient(app.url, ((await res.json()) as { token: string }).token);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await sim?.close();
  await env?.close();
});

const highlightedInDb = async () => (await env.db.sql<{ name: string }[]>`select name from plans where is_highlighted order by name`).map((r) => r.name);
const adminHighlighted = async () => (await admin<{ plans: Plan[] }>("GET", "/api/admin/plans")).body.plans.filter((p) => p.isHighlighted).map((p) => p.name);
const publicPlans = async () => (await apiClient(app.url)<{ plans: Plan[] }>("GET", "/api/plans/active")).body.plans;

async function create(name: string, isHighlighted: boolean, price = BASE.price): Promise<Plan> {
  const r = await admin<{ plan: Plan }>("POST", "/api/admin/plans", { ...BASE, price, name, isHighlighted });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.plan;
}

describe("one highlighted plan at most", () => {
  it("creating a highlighted plan clears the one highlighted before", async () => {
    await env.db.sql`delete from plans`;
    await create("Mensal", true, 9700);
    await create("Anual", true, 97000);
    expect(await highlightedInDb()).toEqual(["Anual"]);
    expect(await adminHighlighted()).toEqual(["Anual"]);
    const plans = await publicPlans();
    expect(plans.filter((p) => p.isHighlighted).map((p) => p.name)).toEqual(["Anual"]);
    expect(plans.filter((p) => p.isDefault).map((p) => p.name)).toEqual(["Anual"]);
  });

  it("editing a plan to highlighted clears the other; un-highlighting leaves none", async () => {
    const mensal = (await admin<{ plans: Plan[] }>("GET", "/api/admin/plans")).body.plans.find((p) => p.name === "Mensal")!;
    const r = await admin<{ plan: Plan }>("PUT", `/api/admin/plans/${mensal.id}`, { ...BASE, name: "Mensal", isHighlighted: true });
    expect(r.status).toBe(200);
    expect(r.body.plan.isHighlighted).toBe(true);
    expect(await highlightedInDb()).toEqual(["Mensal"]);
    expect((await publicPlans()).filter((p) => p.isHighlighted).map((p) => p.name)).toEqual(["Mensal"]);
    // The cleared plan's change is audited.
    const [anual] = await env.db.sql<{ id: string }[]>`select id from plans where name = 'Anual'`;
    const [audit] = await env.db.sql<{ after: { isHighlighted: boolean } }[]>`select after from admin_audit_log where target_type = 'plan' and target_id = ${anual!.id} order by id desc limit 1`;
    expect(audit!.after.isHighlighted).toBe(false);

    await admin("PUT", `/api/admin/plans/${mensal.id}`, { ...BASE, name: "Mensal", isHighlighted: false });
    expect(await highlightedInDb()).toEqual([]);
  });

  it("two admins highlighting different plans at the same moment: exactly one stays highlighted", async () => {
    const plans = (await admin<{ plans: Plan[] }>("GET", "/api/admin/plans")).body.plans;
    const extra = await create("Trimestral", false, 25000);
    const ids = [...plans.map((p) => [p.id, p.name] as const), [extra.id, extra.name] as const];
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(ids.map(([id, name]) => admin("PUT", `/api/admin/plans/${id}`, { ...BASE, name, isHighlighted: true })));
      expect(results.map((r) => r.status)).toEqual(ids.map(() => 200));
      expect(await highlightedInDb()).toHaveLength(1);
    }
  });

  it("older rows with two highlighted plans: the plans list marks only one (the default)", async () => {
    await env.db.sql`update plans set is_highlighted = true where name in ('Mensal', 'Anual')`;
    const plans = await publicPlans();
    const marked = plans.filter((p) => p.isHighlighted);
    expect(marked).toHaveLength(1);
    expect(marked[0]!.isDefault).toBe(true);
    expect(marked[0]!.name).toBe("Mensal"); // the cheaper of the two, as the default rule picks it
  });
});

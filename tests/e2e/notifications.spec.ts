/**
 * 'Central de Notificações' in a real browser (PRODUCT.md §2 Notifications, §4, §5, §9), desktop and
 * mobile: type chips, desktop stat tiles and search, click-to-read, 'Marcar Todas como Lidas' with the
 * header badge following, 'Atualizar', 'Limpar Tudo' behind the browser confirm; and, tagged @nojs
 * (JavaScript disabled), the unread filter, click-to-read, mark-all and clear-all through the
 * server-rendered confirmation step. Notifications of every type are seeded straight into the e2e
 * database (the product only creates them from trading events).
 */
import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { shot } from "./helpers";
import { createVerifiedUser, loginInUi } from "./support/users";

const CONFIRM = "Tem certeza que deseja limpar todas as notificações?";

/** Inserts notifications for the user with that e-mail (minutesAgo sets created_at). */
async function seed(email: string, rows: { type: string; title: string; message: string; read?: boolean; minutesAgo?: number; instrument?: string }[]) {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error("E2E_DATABASE_URL ausente: rode com TEST_DATABASE_URL definido");
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [user] = await sql<{ id: string }[]>`select id from users where email = ${email}`;
    for (const r of rows)
      await sql`insert into notifications (user_id, type, title, message, read, metadata, created_at)
        values (${user!.id}, ${r.type}, ${r.title}, ${r.message}, ${r.read ?? false},
                ${sql.json(r.instrument ? { instrument: r.instrument } : {})}, now() - make_interval(mins => ${r.minutesAgo ?? 0}))`;
  } finally {
    await sql.end();
  }
}

const items = (page: Page) => page.getByTestId("notification-item");
const badge = (page: Page) => page.getByRole("banner").getByTestId("notification-badge");

test.skip(!process.env.TEST_DATABASE_URL, "precisa de TEST_DATABASE_URL para semear notificações");

test("notification center: chips, search, read on click, mark all, badge, refresh, clear all with confirm", async ({ page, request }, testInfo) => {
  const desktop = testInfo.project.name === "desktop";
  const user = await createVerifiedUser(request);
  await seed(user.email, [
    { type: "trading", title: "Trade aberto", message: "Compra EUR/USD · 0.10 lote(s) a 1.08423", instrument: "EUR_USD", minutesAgo: 0 },
    { type: "success", title: "Trade fechado com lucro", message: "Compra GBP/USD fechada por take profit: P&L +12.30 USD", instrument: "GBP_USD", minutesAgo: 5 },
    { type: "warning", title: "Trade fechado com prejuízo", message: "Venda USD/JPY fechada por stop loss: P&L -4.10 USD", instrument: "USD_JPY", minutesAgo: 90 },
    { type: "limit", title: "IA desativada", message: "Parado por limite diário de perdas. Limite atingido.", minutesAgo: 60 * 30 },
    { type: "error", title: "Conexão com a Oanda perdida", message: "Erro de conexão com a Oanda.", minutesAgo: 60 * 24 * 3 },
    { type: "trading", title: "Trade aberto", message: "Venda AUD/USD · 0.05 lote(s) a 0.65210", instrument: "AUD_USD", minutesAgo: 60 * 24 * 10 },
    { type: "success", title: "Conta Oanda conectada", message: "Conta demo conectada.", read: true, minutesAgo: 60 * 24 * 12 },
  ]);
  await loginInUi(page, user.email, user.password);
  await expect(badge(page)).toHaveText("6");

  await page.getByRole("banner").getByTestId("notification-bell").click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Central de Notificações");
  await expect(items(page)).toHaveCount(7);
  // Relative times: Agora, 5m, 1h, 1d, 3d, then dd/mm.
  const times = await items(page).locator("time").allInnerTexts();
  expect(times.slice(0, 5)).toEqual(["Agora", "5m", "1h", "1d", "3d"]);
  expect(times[5]).toMatch(/^\d{2}\/\d{2}$/);

  const chips = page.getByRole("navigation", { name: "Filtrar por tipo" });
  for (const label of ["Todas", "Sucesso", "Avisos", "Erros", "Limites", "Trading"]) await expect(chips.getByRole("link", { name: label, exact: true })).toBeVisible();
  for (const label of ["Atualizar", "Só Não Lidas", "Limpar Tudo"]) await expect(page.getByRole("link", { name: label, exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Marcar Todas como Lidas" })).toBeEnabled();

  const tiles = page.getByTestId("notification-stats");
  const search = page.getByRole("searchbox", { name: "Buscar notificações" });
  if (desktop) {
    for (const [key, label, value] of [
      ["total", "Total", "7"],
      ["unread", "Não Lidas", "6"],
      ["success", "Sucessos", "2"],
      ["warning", "Avisos", "2"],
      ["error", "Erros", "1"],
      ["trading", "Trading", "2"],
    ] as const) {
      await expect(tiles.getByTestId(`stat-${key}`)).toContainText(label);
      await expect(tiles.getByTestId(`stat-${key}`)).toContainText(value);
    }
    await search.fill("EUR/USD");
    await search.press("Enter");
    await expect(page).toHaveURL(/q=EUR%2FUSD/);
    await expect(items(page)).toHaveCount(1);
    await expect(items(page).first()).toContainText("Compra EUR/USD");
    await page.getByRole("link", { name: "Limpar busca" }).click();
    await expect(items(page)).toHaveCount(7);
  } else {
    await expect(tiles).toBeHidden();
    await expect(search).toBeHidden();
  }
  await shot(page, testInfo, "notificacoes");

  await chips.getByRole("link", { name: "Sucesso", exact: true }).click();
  await expect(page).toHaveURL(/type=success/);
  await expect(chips.getByRole("link", { name: "Sucesso", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(items(page)).toHaveCount(2);
  for (const type of await items(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-type")))) expect(type).toBe("success");
  await chips.getByRole("link", { name: "Limites", exact: true }).click();
  await expect(items(page)).toHaveCount(1);
  await expect(items(page).first()).toContainText("IA desativada");
  await chips.getByRole("link", { name: "Todas", exact: true }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(items(page)).toHaveCount(7);

  // A click on an unread notification marks it read; the badge follows.
  const first = items(page).first();
  await expect(first).toHaveAttribute("data-read", "false");
  await first.getByRole("button").click();
  await expect(first).toHaveAttribute("data-read", "true");
  await expect(badge(page)).toHaveText("5");

  await page.getByRole("button", { name: "Marcar Todas como Lidas" }).click();
  await expect(page.getByTestId("unread-dot")).toHaveCount(0);
  await expect(badge(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Marcar Todas como Lidas" })).toBeDisabled();

  // Atualizar brings in what arrived meanwhile.
  const created = await page.request.post("/api/notifications/test");
  expect(created.status()).toBe(201);
  await page.getByRole("link", { name: "Atualizar", exact: true }).click();
  await expect(items(page)).toHaveCount(8);
  await expect(items(page).first()).toContainText("Notificação de teste");
  await expect(badge(page)).toHaveText("1");

  // 'Limpar Tudo' asks first: dismissing keeps everything, accepting empties the list.
  const messages: string[] = [];
  page.once("dialog", (d) => {
    messages.push(d.message());
    void d.dismiss();
  });
  await page.getByRole("link", { name: "Limpar Tudo" }).click();
  await expect.poll(() => messages).toEqual([CONFIRM]);
  await expect(items(page)).toHaveCount(8);
  page.once("dialog", (d) => {
    messages.push(d.message());
    void d.accept();
  });
  await page.getByRole("link", { name: "Limpar Tudo" }).click();
  await expect(page.getByTestId("notifications-empty")).toContainText("Nenhuma notificação");
  expect(messages).toEqual([CONFIRM, CONFIRM]);
  await expect(badge(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("notifications-empty")).toBeVisible();
  await expect(items(page)).toHaveCount(0);
});

test("@nojs unread filter, read on click, mark all and clear all work without JavaScript", async ({ page, request }) => {
  const user = await createVerifiedUser(request);
  await seed(user.email, [
    { type: "error", title: "Erro A", message: "Primeiro erro", minutesAgo: 1 },
    { type: "error", title: "Erro B", message: "Segundo erro", minutesAgo: 2 },
    { type: "success", title: "Sucesso C", message: "Tudo certo", minutesAgo: 3 },
    { type: "trading", title: "Lida D", message: "Já lida", read: true, minutesAgo: 4 },
  ]);
  // Log in through the API: the context's cookie jar is shared with the page.
  const login = await page.request.post("/api/auth/login", { data: { email: user.email, password: user.password } });
  expect(login.status()).toBe(200);

  await page.goto("/notifications");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Central de Notificações");
  await expect(items(page)).toHaveCount(4);
  await expect(badge(page)).toHaveText("3");

  await page.getByRole("link", { name: "Só Não Lidas" }).click();
  await expect(page).toHaveURL(/unread=1/);
  await expect(items(page)).toHaveCount(3);
  await expect(page.getByRole("link", { name: "Mostrar Todas" })).toBeVisible();

  await page.getByRole("navigation", { name: "Filtrar por tipo" }).getByRole("link", { name: "Erros", exact: true }).click();
  await expect(page).toHaveURL(/unread=1/);
  await expect(page).toHaveURL(/type=error/);
  await expect(items(page)).toHaveCount(2);

  // Clicking an unread one posts the form; back on the same filtered page it is gone from 'unread only'.
  await items(page).filter({ hasText: "Erro A" }).getByRole("button").click();
  await expect(page).toHaveURL(/type=error/);
  await expect(items(page)).toHaveCount(1);
  await expect(items(page).first()).toContainText("Erro B");
  await expect(badge(page)).toHaveText("2");

  await page.getByRole("link", { name: "Mostrar Todas" }).click();
  await expect(page).not.toHaveURL(/unread=1/);
  await expect(items(page)).toHaveCount(2);

  await page.getByRole("button", { name: "Marcar Todas como Lidas" }).click();
  await expect(page).toHaveURL(/type=error/);
  await expect(page.getByTestId("unread-dot")).toHaveCount(0);
  await expect(badge(page)).toHaveCount(0);
  await page.getByRole("navigation", { name: "Filtrar por tipo" }).getByRole("link", { name: "Todas", exact: true }).click();
  await expect(items(page)).toHaveCount(4);
  await expect(page.locator('[data-testid="notification-item"][data-read="false"]')).toHaveCount(0);

  // 'Limpar Tudo' without JavaScript: a confirmation step rendered by the server, then a POST.
  await page.getByRole("link", { name: "Limpar Tudo" }).click();
  await expect(page).toHaveURL(/confirm=clear/);
  await expect(page.getByTestId("confirm-clear")).toContainText(CONFIRM);
  await page.getByTestId("confirm-clear").getByRole("link", { name: "Cancelar" }).click();
  await expect(page.getByTestId("confirm-clear")).toHaveCount(0);
  await expect(items(page)).toHaveCount(4);

  await page.getByRole("link", { name: "Limpar Tudo" }).click();
  await page.getByRole("button", { name: "Sim, limpar tudo" }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByTestId("notifications-empty")).toContainText("Nenhuma notificação");
  await expect(items(page)).toHaveCount(0);
});

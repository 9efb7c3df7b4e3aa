/**
 * Issue 22 item 8: the admin stat cards (/admin dashboard, /admin/assinaturas) show their value whole at
 * 390×844 as at 1440×900: no `truncate` (which cut the monthly revenue to "US$ 116,…" with the figure
 * only in a tooltip a phone cannot reach); the value wraps (`break-words`, breakable between currency
 * and number) and its font shrinks on small screens. Rendered with react-dom/server.
 */
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it, vi } from "vitest";
import { StatCard } from "../../../app/components/admin/stat-card";
import { i18nFor } from "../../../app/i18n";

let dashboard: unknown = null;
vi.mock("@remix-run/react", () => ({
  Link: ({ children, to, ...rest }: { children?: ReactNode; to: string }) => createElement("a", { href: to, ...rest }, children),
  useLoaderData: () => dashboard,
  useNavigation: () => ({ state: "idle" }),
  useRevalidator: () => ({ state: "idle", revalidate: () => {} }),
  useRouteLoaderData: () => ({ language: "pt", timezone: "America/Sao_Paulo" }),
}));
vi.mock("~/services/admin/access.server", () => ({}));
vi.mock("~/services/admin/dashboard.server", () => ({}));
const { default: AdminDashboard } = await import("../../../app/routes/admin._index");

/** The class attribute of the element with `data-testid`. */
function classOf(html: string, testId: string): string {
  const m = new RegExp(`<[^>]*data-testid="${testId}"[^>]*>`).exec(html);
  expect(m, testId).not.toBeNull();
  return /class="([^"]*)"/.exec(m![0])?.[1] ?? "";
}

/** The visible text, whitespace (no-break spaces too) collapsed. */
function text(html: string): string {
  return html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/[\s\u00a0\u202f]+/g, " ").trim();
}

describe("admin StatCard (issue 22 item 8)", () => {
  const revenue = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "USD" }).format(116234.56);

  it("the monthly revenue 'US$ 116.234,56' is rendered whole, not truncated", () => {
    const html = renderToString(createElement(StatCard, { label: "Receita mensal", value: revenue, hint: "3 assinantes" }));
    expect(text(html)).toContain("US$ 116.234,56");
    expect(text(html)).not.toContain("…");
    for (const id of ["admin-stat-card", "admin-stat-value"]) {
      const cls = classOf(html, id).split(/\s+/);
      expect(cls).not.toContain("truncate");
      expect(cls).not.toContain("whitespace-nowrap");
      expect(cls).not.toContain("text-ellipsis");
      expect(cls).not.toContain("overflow-hidden");
    }
    const value = classOf(html, "admin-stat-value");
    expect(value).toContain("break-words");
    // Smaller on phones, larger from sm up.
    expect(value).toMatch(/(^|\s)text-(lg|xl)(\s|$)/);
    expect(value).toMatch(/(^|\s)sm:text-(xl|2xl)(\s|$)/);
  });

  it("may break between the currency and the number (Intl's no-break space), never inside the number", () => {
    const html = renderToString(createElement(StatCard, { label: "Receita mensal", value: revenue }));
    expect(html).toContain("US$ 116.234,56");
    expect(html).not.toMatch(/US\$[\u00a0\u202f]/);
  });

  it("every value, short or long, wraps rather than truncates; the bad tone stays red", () => {
    for (const value of ["0", "1.234", "R$ 1.234.567,89 · US$ 98.765,43"]) {
      const html = renderToString(createElement(StatCard, { label: "x", value, tone: "bad" }));
      const cls = classOf(html, "admin-stat-value");
      expect(cls).not.toMatch(/(^|\s)truncate(\s|$)/);
      expect(cls).toContain("break-words");
      expect(cls).toContain("text-rose-300");
      expect(text(html)).toContain(value.replace(/[\u00a0\u202f]/g, " "));
    }
  });
});

describe("/admin dashboard (issue 22 item 8)", () => {
  dashboard = {
    users: { total: 1234, newThisWeek: 12, active: 1200, inactive: 34, admins: 2, brokerConnected: 900, brokerConnectedPct: 72.9 },
    licences: { valid: 1100, expired: 134 },
    revenue: { monthlyUsd: 116234.56, byCurrencyCents: {}, subscribers: 981, unconverted: [], rates: { USD: 1, BRL: 0.18 } },
    recentUsers: [],
    languages: [{ language: "pt", count: 1234, pct: 100 }, { language: "en", count: 0, pct: 0 }, { language: "es", count: 0, pct: 0 }],
    activity: [],
    operations: { activeLoops: 10, botsTickedLastHour: 10, decisionsLastHour: 50, brokerErrorsLastHour: 0, queues: null, queueDepth: null, deadLetters: null, failedLastDay: null },
    generatedAt: "2030-01-01T12:00:00.000Z",
  };

  it("shows the monthly revenue 'US$ 116.234,56' whole; no stat value is truncated", () => {
    const html = renderToString(createElement(I18nextProvider, { i18n: i18nFor("pt") }, createElement(AdminDashboard)));
    expect(text(html)).toContain("US$ 116.234,56");
    const values = [...html.matchAll(/<p[^>]*data-testid="admin-stat-value"[^>]*>/g)];
    expect(values).toHaveLength(12);
    for (const m of values) expect(/class="([^"]*)"/.exec(m[0])![1]!.split(/\s+/)).not.toContain("truncate");
  });
});

/**
 * Pure parts of the admin panel (issue 10): the settings update schema (PRODUCT.md §5 "Admin
 * settings": secrets optional and kept when empty, key prefixes, super-admin e-mails split on commas,
 * trimmed, empties dropped) and the dashboard's revenue rule (§9: plan prices of active subscribers,
 * per month, in USD at the fixed reference rates); and the catalogs have the same keys and
 * parameters in pt/en/es.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { monthlyCents, revenueOf, USD_PER_UNIT } from "~/services/admin/dashboard.server";
import { parseSettingsUpdate } from "~/services/admin/settings-update.server";
import { ValidationError } from "~/services/platform/errors.server";

describe("settings update schema", () => {
  it("splits, trims, lower-cases and de-duplicates the super-admin e-mails", () => {
    expect(parseSettingsUpdate({ superAdminEmails: " Ana@X.com, ,b@x.com;ana@x.com\n" }).superAdminEmails).toEqual(["ana@x.com", "b@x.com"]);
    expect(parseSettingsUpdate({ superAdminEmails: ["C@x.com", ""] }).superAdminEmails).toEqual(["c@x.com"]);
    expect(parseSettingsUpdate({ superAdminEmails: "" }).superAdminEmails).toEqual([]);
  });

  it("accepts empty secrets (keep) and the sk_/rk_/whsec_ prefixes; refuses others with the field named", () => {
    expect(parseSettingsUpdate({ stripeSecret: "", stripeWebhookSecret: "  " })).toMatchObject({ stripeSecret: "", stripeWebhookSecret: "" });
    expect(parseSettingsUpdate({ stripeSecret: "rk_live_abcdefgh12" }).stripeSecret).toBe("rk_live_abcdefgh12");
    for (const [body, field] of [
      [{ stripeSecret: "pk_live_abcdefgh12" }, "stripeSecret"],
      [{ stripeWebhookSecret: "wh_abcdefgh12" }, "stripeWebhookSecret"],
      [{ superAdminEmails: "a@x.com, b" }, "superAdminEmails"],
      [{ vapidSubject: "ftp://x" }, "vapidSubject"],
      [{ brevoSmtpPort: 0 }, "brevoSmtpPort"],
      [{ clearSecrets: ["password"] }, "clearSecrets.0"],
    ] as const) {
      let err: unknown;
      try {
        parseSettingsUpdate(body);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(body)).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).extra.field).toBe(field);
    }
  });

  it("gives the translated message to readers of other languages", () => {
    expect.assertions(2);
    try {
      parseSettingsUpdate({ stripeSecret: "pk_x_12345678" });
    } catch (e) {
      expect((e as ValidationError).messageIn("en")).toBe("Invalid Stripe secret key: it must start with sk_ or rk_.");
      expect((e as ValidationError).messageIn("es")).toBe("Clave secreta de Stripe no válida: debe empezar por sk_ o rk_.");
    }
  });
});

describe("dashboard revenue rule", () => {
  it("counts a month's worth of each plan (yearly ÷ 12, interval_count divides)", () => {
    expect(monthlyCents(9990, "month", 1)).toBe(9990);
    expect(monthlyCents(12000, "year", 1)).toBe(1000);
    expect(monthlyCents(6000, "month", 3)).toBe(2000);
  });

  it("sums per currency and converts at the fixed rates; unknown currencies are reported, not guessed", () => {
    const r = revenueOf([
      { price_cents: 9990, currency: "BRL", interval: "month", interval_count: 1 },
      { price_cents: 9990, currency: "BRL", interval: "month", interval_count: 1 },
      { price_cents: 12000, currency: "USD", interval: "year", interval_count: 1 },
      { price_cents: 5000, currency: "GBP", interval: "month", interval_count: 1 },
    ]);
    expect(r.byCurrencyCents).toEqual({ BRL: 19980, USD: 1000, GBP: 5000 });
    expect(r.monthlyUsd).toBeCloseTo(199.8 * USD_PER_UNIT.BRL! + 10, 2);
    expect(r.unconverted).toEqual(["GBP"]);
    expect(r.subscribers).toBe(4);
  });
});

describe("catalogs: app admin-config / admin-dashboard and core admin-settings", () => {
  /** Every leaf key (plural suffixes folded) with its {{parameters}}. */
  const shape = (file: string) => {
    const out: Record<string, string[]> = {};
    const walk = (o: Record<string, unknown>, prefix: string) => {
      for (const [k, v] of Object.entries(o)) {
        const key = `${prefix}${k.replace(/_(one|many|other)$/, "")}`;
        if (v && typeof v === "object") walk(v as Record<string, unknown>, `${key}.`);
        else out[key] = [...new Set([...(out[key] ?? []), ...String(v).matchAll(/\{\{(\w+)\}\}/g)].map((m) => (typeof m === "string" ? m : m[1]!)))].sort();
      }
    };
    walk(JSON.parse(readFileSync(join(process.cwd(), file), "utf8")) as Record<string, unknown>, "");
    return out;
  };
  it.each([
    ["app/i18n/locales/%s/admin-config.json"],
    ["app/i18n/locales/%s/admin-dashboard.json"],
    ["core/i18n/locales/%s/admin-settings.json"],
  ])("%s: the same keys and parameters in pt, en and es", (pattern) => {
    const pt = shape(pattern.replace("%s", "pt"));
    expect(Object.keys(pt).length).toBeGreaterThan(5);
    expect(shape(pattern.replace("%s", "en"))).toEqual(pt);
    expect(shape(pattern.replace("%s", "es"))).toEqual(pt);
  });
});

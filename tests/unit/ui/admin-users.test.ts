/**
 * The admin user form and API bodies (app/lib/admin-users.ts; PRODUCT.md §5 admin user form, §9
 * admin defaults): create requires e-mail, names and a strong password; edit keeps what is absent
 * and a blank password; the 8 time zones; extend days 1–3650 (default 30); the page form's fields in
 * the API's shape; the list query and the §4 subscription badges. Messages in pt, en and es.
 */
import { describe, expect, it } from "vitest";
import { decodeIssueMessage } from "../../../core/i18n/zod-message";
import { translateMsg } from "../../../app/i18n";
import {
  ADMIN_TIMEZONES,
  adminUserCreateSchema,
  adminUserUpdateSchema,
  extendLicenseSchema,
  parseUserListQuery,
  subscriptionBadge,
  userFormToInput,
} from "../../../app/lib/admin-users";

const first = (r: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) => r.error?.issues[0];

describe("adminUserCreateSchema", () => {
  it("normalises the e-mail and applies the §9 defaults", () => {
    const r = adminUserCreateSchema.parse({ email: " Ana@Teste.COM ", firstName: " Ana ", lastName: "Souza", password: "Senha123" });
    expect(r).toEqual({
      email: "ana@teste.com",
      firstName: "Ana",
      lastName: "Souza",
      password: "Senha123",
      isActive: true,
      preferences: { language: "pt", currency: "BRL", timezone: "America/Sao_Paulo" },
    });
  });

  it.each([
    [{}, "email", "Informe o e-mail do usuário.", "Enter the user's e-mail.", "Indique el e-mail del usuario."],
    [{ email: "x@y.com", firstName: "A", lastName: "B" }, "password", "Informe a senha do novo usuário.", "Enter the new user's password.", "Indique la contraseña del nuevo usuario."],
    [
      { email: "x@y.com", firstName: "A", lastName: "B", password: "Senha123", preferences: { timezone: "Asia/Tokyo" } },
      "preferences.timezone",
      "Fuso horário inválido: use um dos 8 fusos da lista.",
      "Invalid time zone: use one of the 8 time zones of the list.",
      "Zona horaria no válida: use una de las 8 zonas de la lista.",
    ],
  ])("%j → %s: pt / en / es", (body, field, pt, en, es) => {
    const issue = first(adminUserCreateSchema.safeParse(body))!;
    expect(issue.path.join(".")).toBe(field);
    expect(issue.message).toBe(pt);
    const m = decodeIssueMessage(issue.message);
    expect([translateMsg(m, "en"), translateMsg(m, "es")]).toEqual([en, es]);
  });

  it("uses the registration password rules", () => {
    expect(first(adminUserCreateSchema.safeParse({ email: "x@y.com", firstName: "A", lastName: "B", password: "semmaiuscula1" }))?.message).toBe("A senha deve ter uma letra maiúscula.");
  });

  it("accepts exactly the 8 time zones of §5", () => {
    expect(ADMIN_TIMEZONES).toHaveLength(8);
    for (const timezone of ADMIN_TIMEZONES)
      expect(adminUserCreateSchema.safeParse({ email: "x@y.com", firstName: "A", lastName: "B", password: "Senha123", preferences: { timezone } }).success).toBe(true);
  });
});

describe("adminUserUpdateSchema", () => {
  it("absent fields stay absent; a blank or null password keeps the current one", () => {
    expect(adminUserUpdateSchema.parse({ firstName: "Ana", password: "" })).toEqual({ firstName: "Ana", password: undefined });
    expect(adminUserUpdateSchema.parse({ password: null }).password).toBeUndefined();
    expect(adminUserUpdateSchema.parse({ password: "Nova1234" }).password).toBe("Nova1234");
  });

  it("a weak new password or an empty name is refused", () => {
    expect(first(adminUserUpdateSchema.safeParse({ password: "fraca" }))?.message).toBe("A senha deve ter pelo menos 8 caracteres.");
    expect(first(adminUserUpdateSchema.safeParse({ lastName: " " }))?.message).toBe("Informe o sobrenome do usuário.");
  });
});

describe("extendLicenseSchema", () => {
  it("days default 30, whole 1–3650", () => {
    expect(extendLicenseSchema.parse({})).toEqual({ days: 30 });
    expect(extendLicenseSchema.parse({ days: 3650 })).toEqual({ days: 3650 });
    for (const days of [0, 3651, 2.5, "30"]) expect(first(extendLicenseSchema.safeParse({ days }))?.message).toBe("Os dias devem ser um número inteiro de 1 a 3650.");
  });
});

describe("userFormToInput", () => {
  it("turns the page form into the API body (Ativo/Inativo select → boolean)", () => {
    const f = new FormData();
    for (const [k, v] of Object.entries({ email: "a@b.com", firstName: "A", lastName: "B", password: "", isActive: "false", language: "en", currency: "USD", timezone: "Europe/London" })) f.set(k, v);
    expect(userFormToInput(f)).toEqual({
      email: "a@b.com",
      firstName: "A",
      lastName: "B",
      password: "",
      isActive: false,
      preferences: { language: "en", currency: "USD", timezone: "Europe/London" },
    });
    expect(adminUserUpdateSchema.safeParse(userFormToInput(f)).success).toBe(true);
  });
});

describe("parseUserListQuery / subscriptionBadge", () => {
  it("reads search, status and page with safe fallbacks", () => {
    expect(parseUserListQuery(new URLSearchParams("search=%20ana%20&status=past_due&page=3"))).toEqual({ search: "ana", status: "past_due", page: 3 });
    expect(parseUserListQuery(new URLSearchParams("status=xyz&page=-1"))).toEqual({ search: "", status: "all", page: 1 });
  });

  it("maps subscription statuses to the §4 admin badges", () => {
    expect(subscriptionBadge("active").key).toBe("active");
    expect(subscriptionBadge("trialing").key).toBe("active");
    expect(subscriptionBadge("past_due").key).toBe("past_due");
    expect(subscriptionBadge("canceled").key).toBe("canceled");
    expect(subscriptionBadge("inactive").key).toBe("inactive");
    expect(subscriptionBadge(null).key).toBe("inactive");
  });
});

/**
 * The admin user form and API bodies (PRODUCT.md §3 User, §5 "Admin user form", §7 Admin users, §9
 * admin defaults; issue 10): one zod schema per body, shared by POST/PUT /api/admin/users and the
 * /admin/usuarios forms. E-mail required (trimmed, lower-cased), first and last name required,
 * password required on create only (the registration rules: 8+ characters, upper, lower, digit; blank
 * on edit keeps the current one), isActive (Ativo/Inativo), preferences {language pt|en|es, currency
 * BRL|USD|EUR, timezone one of the 8 of §5}, defaults pt / BRL / America/Sao_Paulo. Messages are
 * translatable (`zMsg`, keys of core's `admin-users` catalog). Pure: safe on server and client.
 */
import { z } from "zod";
import { zMsg } from "../../core/i18n/zod-message";
import { passwordField } from "~/lib/validation";
import { LANGUAGES, TIMEZONES } from "./settings-form";

/** The time zones of the admin form (PRODUCT.md §5), the default first: the settings page's list. */
export const ADMIN_TIMEZONES = TIMEZONES;
export const ADMIN_LANGUAGES = LANGUAGES;
export const ADMIN_CURRENCIES = ["BRL", "USD", "EUR"] as const;

/** Admin defaults (PRODUCT.md §9). */
export const DEFAULT_PREFERENCES = { language: "pt", currency: "BRL", timezone: "America/Sao_Paulo" } as const;

/** Users per page of the admin list (PRODUCT.md §9). */
export const ADMIN_USERS_PAGE_SIZE = 50;
/** Days added by "Estender licença" (PRODUCT.md §9), and the bounds of a custom number. */
export const EXTEND_DAYS_DEFAULT = 30;
export const EXTEND_DAYS_MAX = 3650;

/** The status filter of the list (PRODUCT.md §2 Users): on the user's subscription status. */
export const USER_STATUS_FILTERS = ["all", "active", "inactive", "past_due", "canceled"] as const;
export type UserStatusFilter = (typeof USER_STATUS_FILTERS)[number];

/** Time zone the admin panel shows dates in (PRODUCT.md §9). */
export const ADMIN_TIME_ZONE = "America/Sao_Paulo";

const emailRequired = zMsg("admin-users:email.required");
const firstNameRequired = zMsg("admin-users:firstName");
const lastNameRequired = zMsg("admin-users:lastName");
const nameTooLong = zMsg("admin-users:nameTooLong");
const passwordRequired = zMsg("admin-users:password.required");
const bodyInvalid = zMsg("admin-users:body");

const email = z
  .string({ error: emailRequired })
  .trim()
  .toLowerCase()
  .min(1, { error: emailRequired })
  .max(254, { error: zMsg("admin-users:email.invalid") })
  .pipe(z.email({ error: zMsg("admin-users:email.invalid") }));
const name = (required: string) => z.string({ error: required }).trim().min(1, { error: required }).max(100, { error: nameTooLong });

const language = z.enum(ADMIN_LANGUAGES, { error: zMsg("admin-users:language") });
const currency = z.enum(ADMIN_CURRENCIES, { error: zMsg("admin-users:currency") });
const timezone = z.enum(ADMIN_TIMEZONES, { error: zMsg("admin-users:timezone") });
const isActive = z.boolean({ error: zMsg("admin-users:isActive") });

/** POST /api/admin/users and the "Adicionar Usuário" form. */
export const adminUserCreateSchema = z.object(
  {
    email,
    firstName: name(firstNameRequired),
    lastName: name(lastNameRequired),
    password: z.string({ error: passwordRequired }).min(1, { error: passwordRequired }).pipe(passwordField),
    isActive: isActive.default(true),
    preferences: z
      .object(
        { language: language.default(DEFAULT_PREFERENCES.language), currency: currency.default(DEFAULT_PREFERENCES.currency), timezone: timezone.default(DEFAULT_PREFERENCES.timezone) },
        { error: bodyInvalid },
      )
      .default({ ...DEFAULT_PREFERENCES }),
  },
  { error: bodyInvalid },
);
export type AdminUserCreate = z.infer<typeof adminUserCreateSchema>;

/** PUT /api/admin/users/{id} and the edit form: absent fields keep their value; a blank password keeps it. */
export const adminUserUpdateSchema = z.object(
  {
    email: email.optional(),
    firstName: name(firstNameRequired).optional(),
    lastName: name(lastNameRequired).optional(),
    password: z
      .union([z.string(), z.null()], { error: passwordRequired })
      .optional()
      .transform((p) => (p ? p : undefined))
      .pipe(passwordField.optional()),
    isActive: isActive.optional(),
    preferences: z.object({ language: language.optional(), currency: currency.optional(), timezone: timezone.optional() }, { error: bodyInvalid }).optional(),
  },
  { error: bodyInvalid },
);
export type AdminUserUpdate = z.infer<typeof adminUserUpdateSchema>;

const daysInvalid = zMsg("admin-users:days");
/** POST /api/admin/users/{id}/extend-license {days} (default 30, 1–3650). */
export const extendLicenseSchema = z.object(
  {
    days: z.number({ error: daysInvalid }).int({ error: daysInvalid }).min(1, { error: daysInvalid }).max(EXTEND_DAYS_MAX, { error: daysInvalid }).default(EXTEND_DAYS_DEFAULT),
  },
  { error: bodyInvalid },
);

/**
 * The body of a page form (create or edit) in the API's shape: strings as typed, `isActive` from the
 * Ativo/Inativo select ("true"/"false"), preferences from their selects; absent fields stay absent.
 */
export function userFormToInput(form: FormData): Record<string, unknown> {
  const text = (k: string) => {
    const v = form.get(k);
    return typeof v === "string" ? v : undefined;
  };
  const active = text("isActive");
  const out: Record<string, unknown> = {
    email: text("email"),
    firstName: text("firstName"),
    lastName: text("lastName"),
    password: text("password"),
    isActive: active === undefined ? undefined : active === "true" ? true : active === "false" ? false : active,
    preferences: { language: text("language"), currency: text("currency"), timezone: text("timezone") },
  };
  return JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
}

/** A list query read from the page's or the API's URL: search text, status filter, page ≥ 1. */
export function parseUserListQuery(params: URLSearchParams): { search: string; status: UserStatusFilter; page: number } {
  const search = (params.get("search") ?? params.get("q") ?? "").trim().slice(0, 200);
  const s = params.get("status") ?? "all";
  const status = (USER_STATUS_FILTERS as readonly string[]).includes(s) ? (s as UserStatusFilter) : "all";
  const p = Number(params.get("page") ?? "1");
  const page = Number.isInteger(p) && p >= 1 && p <= 100_000 ? p : 1;
  return { search, status, page };
}

/** The subscription-status badge of the admin list (PRODUCT.md §4: active Ativo, inactive Inativo, past_due Vencido, canceled Cancelado). */
export function subscriptionBadge(status: string | null | undefined): { key: "active" | "inactive" | "past_due" | "canceled"; tone: "green" | "grey" | "amber" | "red" } {
  if (status === "active" || status === "trialing") return { key: "active", tone: "green" };
  if (status === "past_due" || status === "unpaid") return { key: "past_due", tone: "amber" };
  if (status === "canceled" || status === "incomplete_expired") return { key: "canceled", tone: "red" };
  return { key: "inactive", tone: "grey" };
}

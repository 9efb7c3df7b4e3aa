/**
 * Parts of the admin Usuários pages (PRODUCT.md §2 Admin panel "Users", §4 admin badges, §6 crown +
 * 'Administrador'; issue 10): the crown icon, the badges of a user row (account, Stripe, licence,
 * broker), the user form (create / edit) and the no-JavaScript delete confirmation.
 */
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { INTL_LOCALE, toLanguage } from "~/i18n";
import { ADMIN_CURRENCIES, ADMIN_LANGUAGES, ADMIN_TIME_ZONE, ADMIN_TIMEZONES, DEFAULT_PREFERENCES, subscriptionBadge } from "~/lib/admin-users";
import { formatDate, formatDateTime } from "~/lib/format";
import { Badge, Banner, Button, Card, Field } from "./ui";

/** Crown (admins, PRODUCT.md §6). */
export function CrownIcon({ size = 16, className }: { size?: number; className?: string }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" className={className}>
      <path d="M2 7l5 5 5-8 5 8 5-5-2 12H4L2 7z" />
      <path d="M4 21h16" />
    </svg>
  );
}

/** The user fields the badges and form read (the admin API's user shape). */
export interface AdminUserLike {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  isActive: boolean;
  preferences: { language: string; currency: string; timezone: string };
  subscriptionStatus: string;
  stripeCustomerId: string | null;
  licenseStatus: string;
  license: { endDate: string; planName: string | null } | null;
  licenseKind: string | null;
  oandaAuth: { isConnected: boolean; environment: string | null; accountName: string | null; status: string | null };
  emailVerifiedAt: string | null;
  createdAt: string;
  lastLogin: string | null;
}

/** Dates of the admin panel: the admin's locale, America/Sao_Paulo (PRODUCT.md §9). */
export function useAdminDates() {
  const { i18n } = useTranslation();
  const locale = INTL_LOCALE[toLanguage(i18n.language)];
  return {
    dateTime: (iso: string | null | undefined) => formatDateTime(iso, { locale, timeZone: ADMIN_TIME_ZONE }),
    date: (iso: string | null | undefined) => formatDate(iso, { locale, timeZone: ADMIN_TIME_ZONE }),
  };
}

/** The display name of a user: first and last name, else the e-mail. */
export function displayName(u: Pick<AdminUserLike, "firstName" | "lastName" | "email">): string {
  return `${u.firstName} ${u.lastName}`.trim() || u.email;
}

/** Crown + 'Administrador' badge. */
export function AdminBadge() {
  const { t } = useTranslation("admin-accounts");
  return (
    <Badge tone="amber" data-testid="admin-badge">
      <CrownIcon size={14} />
      {t("admin")}
    </Badge>
  );
}

/** Account status: Ativo / Inativo. */
export function AccountBadge({ user }: { user: Pick<AdminUserLike, "isActive"> }) {
  const { t } = useTranslation("admin-accounts");
  return <Badge tone={user.isActive ? "green" : "red"}>{t(user.isActive ? "account.active" : "account.inactive")}</Badge>;
}

/** Stripe subscription status (§4 admin badges: Ativo, Inativo, Vencido, Cancelado). */
export function StripeBadge({ user }: { user: Pick<AdminUserLike, "subscriptionStatus"> }) {
  const { t } = useTranslation("admin-accounts");
  const b = subscriptionBadge(user.subscriptionStatus);
  return (
    <Badge tone={b.tone} title={user.subscriptionStatus}>
      {t(`status.${b.key}`)}
    </Badge>
  );
}

/** Licence state with its end date (§4 licence display). */
export function LicenceBadge({ user }: { user: Pick<AdminUserLike, "licenseStatus" | "license"> }) {
  const { t } = useTranslation("admin-accounts");
  const { date } = useAdminDates();
  const tone = user.licenseStatus === "valid" ? "green" : user.licenseStatus === "admin" ? "amber" : user.licenseStatus === "expired" ? "red" : "grey";
  return (
    <span className="flex flex-col items-start gap-1">
      <Badge tone={tone}>{t(`licence.${user.licenseStatus}`)}</Badge>
      {user.license && user.licenseStatus !== "admin" && (
        <span className="text-xs text-slate-400">
          {user.license.planName ? `${user.license.planName} · ` : ""}
          {t("licence.until", { date: date(user.license.endDate) })}
        </span>
      )}
    </span>
  );
}

/** Broker connection: Conectada (Demo/Real, account) / Com erro / Não conectada. */
export function BrokerBadge({ user }: { user: Pick<AdminUserLike, "oandaAuth"> }) {
  const { t } = useTranslation("admin-accounts");
  const o = user.oandaAuth;
  if (!o.isConnected) return <Badge tone="grey">{t("broker.none")}</Badge>;
  return (
    <span className="flex flex-col items-start gap-1">
      <Badge tone={o.status === "error" ? "orange" : "green"}>{t(o.status === "error" ? "broker.error" : "broker.connected")}</Badge>
      <span className="text-xs text-slate-400">
        {o.environment === "live" ? t("broker.live") : t("broker.practice")} · {o.accountName}
      </span>
    </span>
  );
}

/** Values the form shows: the user's (edit), the defaults (create), or what was sent back after an error. */
export interface UserFormValues {
  email?: string;
  firstName?: string;
  lastName?: string;
  isActive?: boolean | string;
  language?: string;
  currency?: string;
  timezone?: string;
}

const SELECT =
  "block min-h-11 w-full rounded-xl border border-white/10 bg-slate-950/60 px-3 py-2.5 text-slate-100 focus:border-emerald-400/60 focus:outline-none focus:ring-2 focus:ring-emerald-400/30";

/** A labelled select. */
function Select({ id, name, label, value, options, error }: { id: string; name: string; label: string; value: string; options: { value: string; label: string }[]; error?: string | null }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-300">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value} className={SELECT} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs text-rose-300">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The user form of PRODUCT.md §2/§5: e-mail, first and last name, password (required on create;
 * blank on edit keeps it), language, currency, Ativo/Inativo, one of the 8 time zones. A plain POST
 * form (works without JavaScript) with `intent` create or update. `credentialsLocked` (another admin,
 * issue 24): the e-mail is read-only and there is no password field — the server refuses both (403).
 */
export function UserForm({
  mode,
  userId,
  values,
  error,
  field,
  cancelTo,
  busy,
  credentialsLocked = false,
}: {
  mode: "create" | "update";
  userId?: string;
  values: UserFormValues;
  error?: string | null;
  field?: string | null;
  cancelTo: string;
  busy?: boolean;
  credentialsLocked?: boolean;
}) {
  const { t } = useTranslation("admin-accounts");
  const fieldError = (name: string) => (error && field && (field === name || field === `preferences.${name}`) ? error : null);
  const generalError = error && !["email", "firstName", "lastName", "password", "isActive", "preferences.language", "preferences.currency", "preferences.timezone"].includes(field ?? "") ? error : null;
  const active = values.isActive === undefined ? "true" : String(values.isActive);
  return (
    <Card title={t(mode === "create" ? "form.createTitle" : "form.editTitle")} data-testid="user-form">
      <Form method="post" className="space-y-4" noValidate>
        <input type="hidden" name="intent" value={mode} />
        {userId && <input type="hidden" name="id" value={userId} />}
        {generalError && <Banner tone="error">{generalError}</Banner>}
        <div className="grid gap-4 md:grid-cols-2">
          <Field
            id="user-email"
            name="email"
            type="email"
            autoComplete="off"
            required
            readOnly={credentialsLocked}
            label={t("form.email")}
            defaultValue={values.email ?? ""}
            error={fieldError("email")}
            className="md:col-span-2"
          />
          <Field id="user-first-name" name="firstName" required label={t("form.firstName")} defaultValue={values.firstName ?? ""} error={fieldError("firstName")} />
          <Field id="user-last-name" name="lastName" required label={t("form.lastName")} defaultValue={values.lastName ?? ""} error={fieldError("lastName")} />
          {credentialsLocked ? (
            <p className="text-sm text-slate-400 md:col-span-2" data-testid="credentials-locked">
              {t("form.credentialsLocked")}
            </p>
          ) : (
            <div className="md:col-span-2">
              <Field
                id="user-password"
                name="password"
                type="password"
                autoComplete="new-password"
                required={mode === "create"}
                label={t("form.password")}
                placeholder={mode === "create" ? t("form.passwordHint") : t("form.passwordEditHint")}
                error={fieldError("password")}
              />
              <p id="user-password-hint" className="mt-1 text-xs text-slate-400">
                {mode === "create" ? t("form.passwordHint") : t("form.passwordEditHint")}
              </p>
            </div>
          )}
          <Select
            id="user-language"
            name="language"
            label={t("form.language")}
            value={values.language ?? DEFAULT_PREFERENCES.language}
            options={ADMIN_LANGUAGES.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
            error={fieldError("language")}
          />
          <Select
            id="user-currency"
            name="currency"
            label={t("form.currency")}
            value={values.currency ?? DEFAULT_PREFERENCES.currency}
            options={ADMIN_CURRENCIES.map((c) => ({ value: c, label: c }))}
            error={fieldError("currency")}
          />
          <Select
            id="user-status"
            name="isActive"
            label={t("form.status")}
            value={active}
            options={[
              { value: "true", label: t("account.active") },
              { value: "false", label: t("account.inactive") },
            ]}
            error={fieldError("isActive")}
          />
          <Select
            id="user-timezone"
            name="timezone"
            label={t("form.timezone")}
            value={values.timezone ?? DEFAULT_PREFERENCES.timezone}
            options={ADMIN_TIMEZONES.map((z) => ({ value: z, label: z }))}
            error={fieldError("timezone")}
          />
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Link to={cancelTo} preventScrollReset className="inline-flex min-h-11 items-center justify-center rounded-xl bg-white/10 px-4 text-sm font-semibold text-slate-100 hover:bg-white/15">
            {t("form.cancel")}
          </Link>
          <Button type="submit" loading={busy}>
            {t(mode === "create" ? "form.create" : "form.save")}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

/** The no-JavaScript delete confirmation (PRODUCT.md §2: 'Tem certeza que deseja excluir este usuário?'). */
export function ConfirmDelete({ user, cancelTo, busy }: { user: Pick<AdminUserLike, "id" | "email" | "firstName" | "lastName">; cancelTo: string; busy?: boolean }) {
  const { t } = useTranslation("admin-accounts");
  return (
    <section role="alertdialog" aria-labelledby="confirm-delete-title" aria-describedby="confirm-delete-detail" className="rounded-2xl border border-rose-400/30 bg-rose-500/10 p-4 md:p-5" data-testid="confirm-delete">
      <h2 id="confirm-delete-title" className="text-base font-semibold text-rose-100">
        {t("confirmDelete")}
      </h2>
      <p id="confirm-delete-detail" className="mt-1 text-sm text-rose-200/90">
        {t("confirmDeleteDetail", { name: displayName(user), email: user.email })}
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={user.id} />
          <Button type="submit" variant="danger" loading={busy}>
            {t("confirm")}
          </Button>
        </Form>
        <Link to={cancelTo} preventScrollReset className="inline-flex min-h-11 items-center justify-center rounded-xl bg-white/10 px-4 text-sm font-semibold text-slate-100 hover:bg-white/15">
          {t("cancel")}
        </Link>
      </div>
    </section>
  );
}

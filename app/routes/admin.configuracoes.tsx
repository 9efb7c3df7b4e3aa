/**
 * /admin/configuracoes — system settings (PRODUCT.md §2 Admin panel "Settings", §3 System settings,
 * §5 "Admin settings", §8 Admin messages; issue 10): payment provider (Stripe) keys, SMTP (Brevo)
 * login/key/from/sender (and host/port), super-admin e-mails, web-push (VAPID) keys, the operator's
 * identity on the legal pages (issue 22 item 10). Secrets are
 * write-only: the stored one is shown masked, its input is empty ('preencha para trocar') and only a
 * filled input replaces it. 'Testar Stripe' and 'Testar SMTP' run the real checks with what is typed
 * (else what is stored) and show 'Stripe OK'/'SMTP OK' or the failure. One no-JS form, three submit
 * buttons (`intent`: save, testStripe, testSmtp). Admins only.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { msg } from "../../core/i18n/message";
import { Badge, Banner, Button, Card, Field } from "~/components/ui";
import { translateMsg } from "~/i18n";
import { metaTitle } from "~/lib/hooks";
import { pageAction } from "~/route-support/page-action.server";
import { requireAdminPage } from "~/services/admin/access.server";
import { testSmtp, testStripe } from "~/services/admin/connection-tests.server";
import { getSettingsView } from "~/services/admin/settings.server";
import { saveSystemSettings, SECRET_FIELDS, type SecretField } from "~/services/admin/settings-update.server";
import { httpStatusOf } from "~/services/platform/errors.server";
import { OPERATOR_FIELDS } from "~/lib/operator-fields";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "admin-config", "settings.meta");

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireAdminPage(request);
  try {
    return { view: await getSettingsView(), loadError: null };
  } catch (err) {
    console.error("[admin/configuracoes] leitura falhou:", err);
    return { view: null, loadError: translateMsg(msg("admin-config:loadFailed"), user.preferences?.language) };
  }
}

type Intent = "save" | "testStripe" | "testSmtp";

/** What the action answers: the intent, success, the message, and the field a validation error names. */
interface ActionResult {
  intent: Intent;
  ok: boolean;
  message: string;
  field?: string;
  at: number;
}

/** The text fields of the form, sent as they are (secrets: only when filled, see the service). */
const TEXT_FIELDS = ["brevoSmtpLogin", "brevoFromEmail", "brevoSenderName", "brevoSmtpHost", "brevoSmtpPort", "superAdminEmails", "vapidPublicKey", "vapidSubject", ...OPERATOR_FIELDS.map((f) => f.field)] as const;

export async function action({ request }: ActionFunctionArgs) {
  const at = Date.now();
  const answer = (intent: string, ok: boolean, message: string, status = 200, field?: string) =>
    data<ActionResult>({ intent: intent as Intent, ok, message, ...(field === undefined ? {} : { field }), at }, { status });
  return pageAction(request, {
    page: "/admin/configuracoes",
    user: () => requireAdminPage(request),
    language: (actor) => actor.user.preferences?.language,
    intents: {
      testStripe: async ({ intent, field, language }) => {
        const r = await testStripe({ stripeSecret: field("stripeSecret") });
        return answer(intent, true, translateMsg(r.message, language));
      },
      testSmtp: async ({ intent, field, language }) => {
        const r = await testSmtp({ brevoSmtpLogin: field("brevoSmtpLogin"), brevoSmtpKey: field("brevoSmtpKey"), brevoSmtpHost: field("brevoSmtpHost"), brevoSmtpPort: field("brevoSmtpPort") || undefined });
        return answer(intent, true, translateMsg(r.message, language));
      },
      save: async ({ user: actor, intent, form, field, language }) => {
        const input: Record<string, unknown> = {};
        for (const k of TEXT_FIELDS) if (form.has(k)) input[k] = field(k);
        if (input.brevoSmtpPort === "") delete input.brevoSmtpPort;
        for (const k of SECRET_FIELDS) if (field(k).trim()) input[k] = field(k);
        const clear = form.getAll("clearSecrets").map(String).filter((s): s is SecretField => (SECRET_FIELDS as readonly string[]).includes(s));
        if (clear.length) input.clearSecrets = clear;
        await saveSystemSettings(actor, input);
        return answer(intent, true, translateMsg(msg("admin-config:saved"), language));
      },
    },
    fallback: "save",
    domainError: (err, { intent, language }) => {
      const field = typeof err.extra.field === "string" ? err.extra.field : undefined;
      // A save that fails: 'Erro ao salvar: <reason>' (PRODUCT.md §8); test failures carry their own §8 text.
      const message = intent === "save" ? translateMsg(msg("admin-config:saveFailedWith", { detail: err.messageIn(language) }), language) : err.messageIn(language);
      // A failed connection test is an answer, not a server failure: the page shows it with 200 (the API says 502).
      const status = intent !== "save" && httpStatusOf(err) >= 500 ? 200 : httpStatusOf(err);
      return answer(intent, false, message, status, field);
    },
    internal: (_err, { intent, language }) => {
      const key = intent === "save" ? "admin-config:saveFailed" : intent === "testStripe" ? "admin-config:test.stripeFailedShort" : "admin-config:test.smtpFailedShort";
      return answer(intent, false, translateMsg(msg(key), language), 500);
    },
  });
}

/** The system settings page. */
export default function AdminSettings() {
  const { view, loadError } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const navigation = useNavigation();
  const { t } = useTranslation("admin-config");
  const busyIntent = navigation.state !== "idle" ? String(navigation.formData?.get("intent") ?? "") : "";
  const errorOf = (field: string) => (result && !result.ok && result.field === field ? result.message : undefined);
  const banner = (intent: Intent) =>
    result?.intent === intent ? (
      <Banner tone={result.ok ? "success" : "error"} className="mt-3">
        {result.message}
      </Banner>
    ) : null;

  if (!view)
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-bold text-white">{t("settings.title")}</h1>
        <Banner tone="error">{loadError}</Banner>
      </div>
    );
  const v = view.values;
  const env = view.meta.env;
  // After a successful save the form is rebuilt, so no typed secret stays in the page.
  const formKey = result?.intent === "save" && result.ok ? `saved-${result.at}` : "form";

  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-white">{t("settings.title")}</h1>
          <p className="mt-1 text-sm text-slate-400">{t("settings.subtitle")}</p>
        </div>
      </header>
      {banner("save")}

      <Form method="post" key={formKey} className="relative space-y-5" noValidate>
        {/* Enter in any field saves: the first submit button of a form is its default one (not 'Testar Stripe'). */}
        <button type="submit" name="intent" value="save" tabIndex={-1} aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          {t("settings.save")}
        </button>
        <Card
          title={t("settings.stripe.title")}
          action={<StatusBadge ok={view.meta.stripeConfigured} label={view.meta.stripeConfigured ? t("settings.configured") : view.meta.stripeSource === "simulator" ? t("settings.stripe.simulator") : t("settings.notConfigured")} />}
        >
          {(env.stripeSecret || env.stripeApiBase) && <EnvNote>{t("settings.stripe.env")}</EnvNote>}
          <div className="grid gap-4 md:grid-cols-2">
            <SecretInput id="stripeSecret" label={t("settings.stripe.secret")} current={v.stripeSecret} error={errorOf("stripeSecret")} placeholder="sk_live_… / rk_live_…" />
            <SecretInput id="stripeWebhookSecret" label={t("settings.stripe.webhook")} current={v.stripeWebhookSecret} error={errorOf("stripeWebhookSecret")} placeholder="whsec_…" />
          </div>
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <Button type="submit" name="intent" value="testStripe" variant="secondary" loading={busyIntent === "testStripe"}>
              {t("settings.stripe.test")}
            </Button>
            <p className="text-xs text-slate-400">{t("settings.stripe.testHint")}</p>
          </div>
          {banner("testStripe")}
        </Card>

        <Card title={t("settings.smtp.title")} action={<StatusBadge ok={view.meta.brevoConfigured} label={view.meta.brevoConfigured ? t("settings.configured") : t("settings.notConfigured")} />}>
          {env.smtp && <EnvNote>{t("settings.smtp.env")}</EnvNote>}
          <div className="grid gap-4 md:grid-cols-2">
            <Field id="brevoSmtpLogin" name="brevoSmtpLogin" label={t("settings.smtp.login")} defaultValue={v.brevoSmtpLogin} autoComplete="off" error={errorOf("brevoSmtpLogin")} />
            <SecretInput id="brevoSmtpKey" label={t("settings.smtp.key")} current={v.brevoSmtpKey} error={errorOf("brevoSmtpKey")} placeholder="xsmtpsib-…" />
            <Field id="brevoFromEmail" name="brevoFromEmail" type="email" label={t("settings.smtp.fromEmail")} defaultValue={v.brevoFromEmail} error={errorOf("brevoFromEmail")} />
            <Field id="brevoSenderName" name="brevoSenderName" label={t("settings.smtp.senderName")} defaultValue={v.brevoSenderName} error={errorOf("brevoSenderName")} />
            <Field id="brevoSmtpHost" name="brevoSmtpHost" label={t("settings.smtp.host")} defaultValue={v.brevoSmtpHost} error={errorOf("brevoSmtpHost")} />
            <Field id="brevoSmtpPort" name="brevoSmtpPort" type="number" inputMode="numeric" min={1} max={65535} label={t("settings.smtp.port")} defaultValue={v.brevoSmtpPort} error={errorOf("brevoSmtpPort")} />
          </div>
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <Button type="submit" name="intent" value="testSmtp" variant="secondary" loading={busyIntent === "testSmtp"}>
              {t("settings.smtp.test")}
            </Button>
            <p className="text-xs text-slate-400">{t("settings.smtp.testHint")}</p>
          </div>
          {banner("testSmtp")}
        </Card>

        <Card title={t("settings.admins.title")}>
          <label htmlFor="superAdminEmails" className="mb-1.5 block text-sm font-medium text-slate-300">
            {t("settings.admins.label")}
          </label>
          <textarea
            id="superAdminEmails"
            name="superAdminEmails"
            rows={3}
            defaultValue={v.superAdminEmails.join(", ")}
            aria-invalid={errorOf("superAdminEmails") ? true : undefined}
            aria-describedby="superAdminEmails-hint"
            className="block w-full rounded-xl border border-white/10 bg-slate-950/60 px-3.5 py-2.5 text-slate-100 placeholder:text-slate-500 focus:border-emerald-400/60 focus:outline-none focus:ring-2 focus:ring-emerald-400/30"
            placeholder="ana@empresa.com, joao@empresa.com"
          />
          <p id="superAdminEmails-hint" className="mt-1 text-xs text-slate-400">
            {t("settings.admins.hint")}
          </p>
          {errorOf("superAdminEmails") && <p className="mt-1 text-xs text-rose-300">{errorOf("superAdminEmails")}</p>}
        </Card>

        <Card title={t("settings.vapid.title")} action={<StatusBadge ok={view.meta.vapidConfigured} label={view.meta.vapidConfigured ? t("settings.configured") : t("settings.notConfigured")} />}>
          {(env.vapidPublicKey || env.vapidPrivateKey || env.vapidSubject) && <EnvNote>{t("settings.vapid.env")}</EnvNote>}
          <div className="grid gap-4 md:grid-cols-2">
            <Field id="vapidPublicKey" name="vapidPublicKey" label={t("settings.vapid.publicKey")} defaultValue={v.vapidPublicKey} autoComplete="off" error={errorOf("vapidPublicKey")} />
            <SecretInput id="vapidPrivateKey" label={t("settings.vapid.privateKey")} current={v.vapidPrivateKey} error={errorOf("vapidPrivateKey")} />
            <Field id="vapidSubject" name="vapidSubject" label={t("settings.vapid.subject")} defaultValue={v.vapidSubject} placeholder="mailto:suporte@empresa.com" error={errorOf("vapidSubject")} />
          </div>
        </Card>

        <Card
          title={t("settings.operator.title")}
          action={<StatusBadge ok={view.meta.operatorComplete} label={view.meta.operatorComplete ? t("settings.operator.complete") : t("settings.operator.incomplete")} />}
        >
          <p className="mb-3 text-xs text-slate-400">{t("settings.operator.hint")}</p>
          {Object.values(env.operator).some(Boolean) && <EnvNote>{t("settings.operator.env")}</EnvNote>}
          <div className="grid gap-4 md:grid-cols-2" data-testid="operator-identity">
            {OPERATOR_FIELDS.map((f) => (
              <Field
                key={f.field}
                id={f.field}
                name={f.field}
                type={f.field.endsWith("Email") ? "email" : "text"}
                label={t(`settings.operator.${f.stored}`)}
                defaultValue={v[f.field]}
                placeholder={env.operator[f.field] ? f.env : undefined}
                error={errorOf(f.field)}
              />
            ))}
          </div>
        </Card>

        <div className="sticky bottom-0 -mx-4 flex justify-end border-t border-white/10 bg-slate-950/90 px-4 py-3 backdrop-blur lg:static lg:mx-0 lg:border-0 lg:bg-transparent lg:p-0">
          <Button type="submit" name="intent" value="save" loading={busyIntent === "save"} className="w-full sm:w-auto">
            {t("settings.save")}
          </Button>
        </div>
      </Form>
    </div>
  );
}

/** A green 'Configurado' / grey 'Não configurado' badge. */
function StatusBadge({ ok, label }: { ok: boolean; label: string }) {
  return <Badge tone={ok ? "green" : "grey"}>{label}</Badge>;
}

/** A note that environment variables override what is stored here. */
function EnvNote({ children }: { children: ReactNode }) {
  return <p className="mb-3 rounded-lg bg-sky-500/10 px-3 py-2 text-xs text-sky-200 ring-1 ring-sky-400/20">{children}</p>;
}

/** A write-only secret: empty input ('preencha para trocar'), the stored value masked, and 'remover'. */
function SecretInput({ id, label, current, error, placeholder }: { id: SecretField; label: string; current: string; error?: string; placeholder?: string }) {
  const { t } = useTranslation("admin-config");
  return (
    <div>
      <Field id={id} name={id} type="password" label={label} autoComplete="new-password" placeholder={placeholder ? `${t("settings.fillToChange")} (${placeholder})` : t("settings.fillToChange")} error={error} aria-describedby={error ? `${id}-error ${id}-current` : `${id}-current`} />
      <div id={`${id}-current`} className="mt-1 flex flex-wrap items-center justify-between gap-2 text-xs text-slate-400">
        <span>
          {t("settings.current")} <span className="font-mono text-slate-300">{current || t("settings.none")}</span>
        </span>
        {current && (
          <label className="flex items-center gap-1.5">
            <input type="checkbox" name="clearSecrets" value={id} className="h-4 w-4 accent-rose-500" />
            {t("settings.remove")}
          </label>
        )}
      </div>
    </div>
  );
}

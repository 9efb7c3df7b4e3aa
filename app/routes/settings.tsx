/**
 * /settings 'Configurações Avançadas' (PRODUCT.md §2 Settings, §3 Trading settings, §4 Settings save,
 * §5 bounds, §8, §9 defaults): subscription card, broker connection, 'Gestão de Risco' (with the
 * issue 7 trading hours, weekend guard and unrealized-loss option), 'Parâmetros
 * de Trading e IA', language/timezone and push information. One POST <Form> (works without
 * JavaScript) saved by the action through `saveSettingsAndPreferences` (one transaction) — out-of-range input is rejected with the
 * schema's message and nothing is saved; with JavaScript the same schema validates live. Every text,
 * validation messages included, is in the user's language (Portuguese by default; the schema's
 * messages are decoded with `translateIssue`, core/i18n/zod-message.ts), numbers and dates in their
 * locale (`useDisplay`).
 *
 * The action is a `pageAction` (app/route-support/page-action.server.ts: Origin check, signed-in user,
 * form body, pino logging): `save` (the settings form, also any other intent), `disconnect`,
 * `push-topics` and `edge-override`, each answered in its own card; a domain error becomes that card's
 * message with its status, anything else 'Erro interno' with 500. The cards live in
 * app/components/settings/ (header and save bar, risk, AI, preferences, broker, edge, push).
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRevalidator, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useState, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { msg } from "../../core/i18n/message";
import { decodeIssueMessage, translateIssue } from "../../core/i18n/zod-message";
import { defaultSettings, type TradingSettings } from "../../core/settings";
import { AccountRulesCard } from "~/components/account-rules-card";
import { BrokerSection, PushInfoCard, SubscriptionCard } from "~/components/settings/account-sections";
import { AiCard } from "~/components/settings/ai-card";
import { EDGE_OVERRIDE_INTENT, EdgeOverridesSection } from "~/components/settings/edge-overrides";
import { PreferencesCard } from "~/components/settings/preferences-card";
import { RiskCard } from "~/components/settings/risk-card";
import { MobileSaveBar, SaveBanner, SettingsHeader } from "~/components/settings/save-controls";
import { Banner } from "~/components/ui";
import { translateMsg } from "~/i18n";
import { toDisplayCurrency } from "~/lib/display-currency";
import { metaTitle } from "~/lib/hooks";
import { edgeOverrideFormSchema, firstFormError, pushTopicsFormSchema, settingsFormSchema, settingsPatchFromForm } from "~/lib/settings-form";
import { pageAction } from "~/route-support/page-action.server";
import { requireAppUser } from "~/route-support/pages.server";
import { getConnection, NOT_CONNECTED } from "~/services/broker/broker.server";
import { disconnectBroker } from "~/services/trading/broker-link.server";
import { readAccountRules } from "~/services/trading/broker-rules.server";
import { publicUser } from "~/services/identity/auth.server";
import { getPreferences } from "~/services/identity/preferences.server";
import { getPushTopics, savePushTopics } from "~/services/notify/push/push.server";
import { ApiError, INTERNAL_ERROR } from "~/route-support/api.server";
import { httpStatusOf } from "~/services/platform/errors.server";
import { logger } from "~/services/platform/logger.server";
import { reportCards } from "~/services/research/edge-table.server";
import { stopBot } from "~/services/trading/bot-stop.server";
import { edgePairs, setEdgeOverride } from "~/services/trading/edge-overrides.server";
import { getSettings, saveSettingsAndPreferences } from "~/services/trading/settings.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "settings", "meta");

/** Banner display times (PRODUCT.md §4 Settings save, §8). */
const SUCCESS_MS = 4000;
const ERROR_MS = 5000;
const FORM_ID = "settings-form";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAppUser(request);
  const [pub, conn, prefs, pushTopics] = await Promise.all([publicUser(user), getConnection(user.id), getPreferences(user.id), getPushTopics(user.id)]);
  let settings: TradingSettings;
  let loadError: string | null = null;
  try {
    settings = await getSettings(user.id);
  } catch (err) {
    logger().error({ err: err instanceof Error ? err.stack : String(err), page: "/settings" }, "falha ao carregar as configurações");
    loadError = translateMsg(err instanceof ApiError ? err.msg : msg("api:settings.loadFailed"), user.preferences?.language);
    settings = defaultSettings();
  }
  return {
    settings,
    // Issue 21: the report card of every style, so the card follows the style being chosen.
    reportCards: reportCards(settings),
    // Issue 21: each pair's edge verdict in the chosen style and the user's "Operar mesmo assim" switches.
    edge: edgePairs(settings),
    loadError,
    preferences: { language: prefs.language, timezone: prefs.timezone, currency: toDisplayCurrency(prefs.currency) },
    pushTopics,
    licence: { status: pub.licenseStatus, planName: pub.license?.planName ?? pub.plan?.name ?? null, endDate: pub.license?.endDate ?? null, key: pub.license?.key ?? null },
    broker: { isConnected: !!conn, accountId: conn?.account_id ?? null, accountName: conn ? conn.account_alias || `Conta ${conn.account_id}` : null, environment: conn?.environment ?? null },
    // Issue 22: 'Regras da sua conta', the broker-rule check as last stored (connect, then each sync window).
    accountRules: conn ? await readAccountRules(user.id, user.preferences?.language) : null,
    loadedAt: new Date().toISOString(),
  };
}

/** The intents of the page's forms: the settings form (`save`, also any other value), broker disconnect, push topics, an edge switch. */
type Intent = "save" | "disconnect" | "push-topics" | typeof EDGE_OVERRIDE_INTENT;

/** `Omit` over each member of a union. */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What the action answers; `message` is in the user's language. */
type ActionResult =
  | { ok: true; intent: "save" | "disconnect" | "push-topics"; message: string; at: number }
  | { ok: false; intent: "save" | "disconnect" | "push-topics"; message: string; at: number; result?: SubmissionResult<string[]> }
  | { ok: boolean; intent: typeof EDGE_OVERRIDE_INTENT; message: string; at: number; confirm?: string };

export async function action({ request }: ActionFunctionArgs) {
  const at = Date.now();
  const answer = (r: OmitEach<ActionResult, "at">, status = 200) => data<ActionResult>({ ...r, at } as ActionResult, { status });
  return pageAction(request, {
    page: "/settings",
    user: () => requireAppUser(request),
    language: (user) => user.preferences?.language,
    crossSite: (message) => answer({ ok: false, intent: "save", message }, 403),
    intents: {
      disconnect: async ({ user, language }) => {
        await stopBot(user.id, "manual");
        const had = await disconnectBroker(user.id);
        return had
          ? answer({ ok: true, intent: "disconnect", message: translateMsg(msg("api:broker.disconnected"), language) })
          : answer({ ok: false, intent: "disconnect", message: translateMsg(NOT_CONNECTED, language) }, 400);
      },
      // The push card's switches (issue 11): the checked topics, for every device of the user.
      "push-topics": async ({ user, form, language, parse }) => {
        const { pushTopics } = parse(pushTopicsFormSchema, { pushTopics: form.getAll("pushTopics") });
        await savePushTopics(user.id, pushTopics);
        return answer({ ok: true, intent: "push-topics", message: translateMsg(msg("push:topicsSaved"), language) });
      },
      // One "Operar mesmo assim" switch (issue 21): ON for a pair without an edge first asks for a confirmation.
      [EDGE_OVERRIDE_INTENT]: async ({ user, language, parse }) => {
        const input = parse(edgeOverrideFormSchema);
        if (input.cancel) return answer({ ok: false, intent: EDGE_OVERRIDE_INTENT, message: "" }); // the warning's Cancelar: nothing saved
        const r = await setEdgeOverride(user.id, input);
        if (r.status === "confirm") return answer({ ok: false, intent: EDGE_OVERRIDE_INTENT, message: "", confirm: r.instrument });
        const text = msg(r.enabled ? "edge-override:saved.on" : "edge-override:saved.off", { pair: r.instrument.replace("_", "/") });
        return answer({ ok: true, intent: EDGE_OVERRIDE_INTENT, message: translateMsg(text, language) });
      },
      // The settings form: out of range → the schema's message and conform's reply (the fields' errors), nothing saved.
      save: async ({ user, form, language }) => {
        const submission = parseWithZod(form, { schema: settingsFormSchema, disableAutoCoercion: true });
        if (submission.status !== "success") {
          const first = firstFormError(submission.error);
          const message = translateMsg(first ? decodeIssueMessage(first) : msg("api:invalidData"), language);
          return answer({ ok: false, intent: "save", message, result: submission.reply() }, 400);
        }
        // Settings and preferences in one transaction (issue 7): a refused half leaves the other unsaved too.
        await saveSettingsAndPreferences(user.id, {
          settings: (current) => settingsPatchFromForm(submission.value, current),
          preferences: submission.value.preferences,
        });
        return answer({ ok: true, intent: "save", message: translateMsg(msg("api:settings.saved"), language) });
      },
    },
    fallback: "save",
    domainError: (err, { intent, language }) => answer({ ok: false, intent: intent as Intent, message: err.messageIn(language) }, httpStatusOf(err)),
    internal: (_err, { intent, language }) => answer({ ok: false, intent: intent as Intent, message: translateMsg(INTERNAL_ERROR, language) }, 500),
  });
}

/** A rejected save keeps what the user typed (no reload of the form). */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  actionResult && (actionResult as ActionResult).ok === false ? false : defaultShouldRevalidate;

/** The settings page. */
export default function SettingsPage() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionResult | undefined;
  const { t } = useTranslation("settings");
  const navigation = useNavigation();
  const { revalidate, state: revalidation } = useRevalidator();
  const saving = navigation.state === "submitting" && navigation.formMethod?.toLowerCase() === "post" && navigation.formData?.get("intent") === "save";

  // Save banner: success hides after 4 s, error after 5 s (without JavaScript it stays).
  const saveResult = actionData?.intent === "save" ? actionData : undefined;
  const [banner, setBanner] = useState<ActionResult | null>(saveResult ?? null);
  useEffect(() => {
    if (!saveResult) return;
    setBanner(saveResult);
    const id = window.setTimeout(() => setBanner(null), saveResult.ok ? SUCCESS_MS : ERROR_MS);
    return () => window.clearTimeout(id);
  }, [saveResult]);
  const [loadError, setLoadError] = useState<string | null>(d.loadError);
  useEffect(() => {
    setLoadError(d.loadError);
    if (!d.loadError) return;
    const id = window.setTimeout(() => setLoadError(null), ERROR_MS);
    return () => window.clearTimeout(id);
  }, [d.loadError, d.loadedAt]);

  const [form] = useForm({
    id: FORM_ID,
    lastResult: saveResult && !saveResult.ok ? saveResult.result : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: settingsFormSchema, disableAutoCoercion: true }),
  });
  const errors = form.allErrors;
  // The schema's messages (from the browser's live validation or the action's reply) in the user's language.
  const err = (name: string) => {
    const text = errors[name]?.[0];
    return text ? translateIssue(t, text) : null;
  };

  const s = d.settings;

  function reload(e: MouseEvent) {
    e.preventDefault();
    setBanner(null);
    revalidate();
  }

  const disconnectMessage = actionData?.intent === "disconnect" ? actionData.message : null;

  return (
    <main className="mx-auto max-w-6xl space-y-5 px-4 pb-28 pt-4 md:pb-8 md:pt-8">
      <SettingsHeader formId={FORM_ID} saving={saving} reloading={revalidation === "loading"} onReload={reload} />
      {banner && <SaveBanner ok={banner.ok} message={banner.message} onClose={() => setBanner(null)} />}
      {loadError && <Banner tone="error">{t("loadError", { message: loadError })}</Banner>}

      <div className="grid gap-4 md:grid-cols-2">
        <SubscriptionCard licenseStatus={d.licence.status} planName={d.licence.planName} endDate={d.licence.endDate} licenseKey={d.licence.key} />
        <BrokerSection broker={d.broker} onConnected={() => revalidate()} message={disconnectMessage} />
      </div>
      {d.broker.isConnected && <AccountRulesCard rules={d.accountRules} />}

      <Form method="post" {...getFormProps(form)} key={d.loadedAt} className="space-y-5" aria-label={t("title")}>
        <input type="hidden" name="intent" value="save" />
        <RiskCard settings={s} timezone={d.preferences.timezone} err={err} />
        <AiCard settings={s} reportCards={d.reportCards} loadedAt={d.loadedAt} err={err} />
        <PreferencesCard preferences={d.preferences} err={err} />
      </Form>

      <EdgeOverridesSection
        style={s.aiSettings.tradingStyle}
        pairs={d.edge.pairs}
        confirm={actionData?.intent === EDGE_OVERRIDE_INTENT ? (actionData.confirm ?? null) : null}
        message={actionData?.intent === EDGE_OVERRIDE_INTENT && actionData.message ? { ok: actionData.ok, text: actionData.message } : null}
      />

      <PushInfoCard topics={d.pushTopics} message={actionData?.intent === "push-topics" ? { ok: actionData.ok, text: actionData.message } : null} />

      <MobileSaveBar formId={FORM_ID} saving={saving} />
    </main>
  );
}

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
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator, type ShouldRevalidateFunction } from "@remix-run/react";
import clsx from "clsx";
import { useEffect, useState, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { msg, type Msg } from "../../core/i18n/message";
import { decodeIssueMessage, translateIssue } from "../../core/i18n/zod-message";
import { AI_TIMEFRAMES, SUPPORTED_INSTRUMENTS } from "../../core/instruments";
import { defaultSettings, NEWS_SENSITIVITIES, type TradingSettings } from "../../core/settings";
import { BrokerSection, PushInfoCard, SubscriptionCard } from "~/components/settings/account-sections";
import { CheckboxField, DaysField, NumberField, SelectField, TextField, TimeField } from "~/components/settings/fields";
import { LeverageField } from "~/components/settings/leverage-field";
import { TradingDayField } from "~/components/settings/trading-day-field";
import { EDGE_OVERRIDE_INTENT, EdgeOverridesSection } from "~/components/settings/edge-overrides";
import { edgePairs, setEdgeOverride } from "~/services/trading/edge-overrides.server";
import { Banner, Button, Card, Spinner } from "~/components/ui";
import { toLanguage, translateMsg } from "~/i18n";
import { metaTitle } from "~/lib/hooks";
import { requireAppUser } from "~/route-support/pages.server";
import {
  firstFormError,
  LANGUAGES,
  scalperEnabledFor,
  settingsFormSchema,
  settingsPatchFromForm,
  showScalperBlock,
  STYLE_OPTIONS,
  TIMEZONES,
  WEEKDAY_OPTIONS,
  WEEKDAYS_FIELD,
  WEEKEND_MODE_OPTIONS,
} from "~/lib/settings-form";
import { ApiError, assertSameOrigin, DomainError, INTERNAL_ERROR } from "~/services/platform/api.server";
import { publicUser } from "~/services/identity/auth.server";
import { stopBot } from "~/services/trading/bot-stop.server";
import { disconnectBroker, getConnection, NOT_CONNECTED } from "~/services/broker/broker.server";
import { getPreferences } from "~/services/identity/preferences.server";
import { getPushTopics, savePushTopics } from "~/services/notify/push/push.server";
import { requestLanguage } from "~/services/identity/request-language.server";
import { getSettings, saveSettingsAndPreferences } from "~/services/trading/settings.server";
import { ReportCard } from "~/components/research/report-card";
import { reportCards } from "~/services/research/edge-table.server";
import { readForm } from "~/route-support/form.server";
import { AccountRulesCard } from "~/components/account-rules-card";
import { readAccountRules } from "~/services/broker/broker-rules.server";
import { DISPLAY_CURRENCIES, toDisplayCurrency } from "~/lib/display-currency";

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
    console.error("[settings] falha ao carregar:", err);
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

/** What the action answers; `message` is in the user's language. */
type ActionResult =
  | { ok: true; intent: "save" | "disconnect" | "push-topics"; message: string; at: number }
  | { ok: false; intent: "save" | "disconnect" | "push-topics"; message: string; at: number; result?: SubmissionResult<string[]> }
  | { ok: boolean; intent: typeof EDGE_OVERRIDE_INTENT; message: string; at: number; confirm?: string };

export async function action({ request }: ActionFunctionArgs) {
  const at = Date.now();
  try {
    assertSameOrigin(request);
  } catch (err) {
    const message = err instanceof ApiError ? err.messageIn(await requestLanguage(request)) : (err as Error).message;
    return data<ActionResult>({ ok: false, intent: "save", message, at }, { status: 403 });
  }
  const user = await requireAppUser(request);
  const language = toLanguage(user.preferences?.language);
  const say = (m: Msg | string) => translateMsg(m, language);
  const formData = await readForm(request, language);
  if (formData.get("intent") === "disconnect") {
    await stopBot(user.id, "manual");
    const had = await disconnectBroker(user.id);
    return had
      ? data<ActionResult>({ ok: true, intent: "disconnect", message: say(msg("api:broker.disconnected")), at })
      : data<ActionResult>({ ok: false, intent: "disconnect", message: say(NOT_CONNECTED), at }, { status: 400 });
  }
  if (formData.get("intent") === "push-topics") {
    // The push card's switches (issue 11): the checked topics, for every device of the user.
    try {
      await savePushTopics(user.id, formData.getAll("pushTopics"));
      return data<ActionResult>({ ok: true, intent: "push-topics", message: say(msg("push:topicsSaved")), at });
    } catch (err) {
      if (err instanceof DomainError) return data<ActionResult>({ ok: false, intent: "push-topics", message: err.messageIn(language), at }, { status: err.status });
      throw err;
    }
  }
  if (formData.get("intent") === EDGE_OVERRIDE_INTENT) {
    // One "Operar mesmo assim" switch (issue 21): ON for a pair without an edge first asks for a confirmation.
    if (formData.get("cancel") === "1") return data<ActionResult>({ ok: false, intent: EDGE_OVERRIDE_INTENT, message: "", at }); // the warning's Cancelar: nothing saved
    try {
      const input = { instrument: formData.get("instrument"), enable: formData.get("enable") === "1", confirmed: formData.get("confirmed") === "1" };
      const r = await setEdgeOverride(user.id, input);
      if (r.status === "confirm") return data<ActionResult>({ ok: false, intent: EDGE_OVERRIDE_INTENT, message: "", at, confirm: r.instrument });
      const text = msg(r.enabled ? "edge-override:saved.on" : "edge-override:saved.off", { pair: r.instrument.replace("_", "/") });
      return data<ActionResult>({ ok: true, intent: EDGE_OVERRIDE_INTENT, message: say(text), at });
    } catch (err) {
      if (err instanceof DomainError) return data<ActionResult>({ ok: false, intent: EDGE_OVERRIDE_INTENT, message: err.messageIn(language), at }, { status: err.status });
      throw err;
    }
  }
  const submission = parseWithZod(formData, { schema: settingsFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success") {
    const first = firstFormError(submission.error);
    const message = say(first ? decodeIssueMessage(first) : msg("api:invalidData"));
    return data<ActionResult>({ ok: false, intent: "save", message, at, result: submission.reply() }, { status: 400 });
  }
  try {
    // Settings and preferences in one transaction (issue 7): a refused half leaves the other unsaved too.
    await saveSettingsAndPreferences(user.id, {
      settings: (current) => settingsPatchFromForm(submission.value, current),
      preferences: submission.value.preferences,
    });
  } catch (err) {
    if (err instanceof ApiError) return data<ActionResult>({ ok: false, intent: "save", message: err.messageIn(language), at }, { status: err.status });
    console.error("[settings] falha ao salvar:", err);
    return data<ActionResult>({ ok: false, intent: "save", message: say(INTERNAL_ERROR), at }, { status: 500 });
  }
  return data<ActionResult>({ ok: true, intent: "save", message: say(msg("api:settings.saved")), at });
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
  const [style, setStyle] = useState<string>(s.aiSettings.tradingStyle);
  const [scalperOn, setScalperOn] = useState<boolean>(s.aiSettings.scalper.enabled);
  // Fresh server values (after Recarregar or a save) reset the controlled fields.
  useEffect(() => {
    setStyle(d.settings.aiSettings.tradingStyle);
    setScalperOn(d.settings.aiSettings.scalper.enabled);
  }, [d.loadedAt, d.settings]);

  function reload(e: MouseEvent) {
    e.preventDefault();
    setBanner(null);
    revalidate();
  }

  const disconnectMessage = actionData?.intent === "disconnect" ? actionData.message : null;

  return (
    <main className="mx-auto max-w-6xl space-y-5 px-4 pb-28 pt-4 md:pb-8 md:pt-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-white">{t("title")}</h1>
          <p className="text-sm text-slate-400">{t("subtitle")}</p>
        </div>
        <div className="flex items-center gap-2">
          <a
            href="/settings"
            onClick={reload}
            className="inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-white/10 px-4 py-2.5 text-sm font-semibold text-slate-100 hover:bg-white/15"
            data-testid="reload"
          >
            {revalidation === "loading" && <Spinner />}
            {t("reload")}
          </a>
          <div className="hidden md:block">
            <Button type="submit" form={FORM_ID} name="intent" value="save" loading={saving} data-testid="save-all">
              {saving ? t("saving") : t("saveAll")}
            </Button>
          </div>
        </div>
      </div>

      {banner && (
        <Banner tone={banner.ok ? "success" : "error"} onClose={() => setBanner(null)}>
          <p className="font-semibold">{banner.ok ? t("successTitle") : t("errorTitle")}</p>
          <p className="mt-0.5" data-testid="save-message">
            {banner.ok ? t("successMessage") : t("errorMessage", { message: banner.message })}
          </p>
        </Banner>
      )}
      {loadError && <Banner tone="error">{t("loadError", { message: loadError })}</Banner>}

      <div className="grid gap-4 md:grid-cols-2">
        <SubscriptionCard licenseStatus={d.licence.status} planName={d.licence.planName} endDate={d.licence.endDate} licenseKey={d.licence.key} />
        <BrokerSection broker={d.broker} onConnected={() => revalidate()} message={disconnectMessage} />
      </div>
      {d.broker.isConnected && <AccountRulesCard rules={d.accountRules} />}

      <Form method="post" {...getFormProps(form)} key={d.loadedAt} className="space-y-5" aria-label={t("title")}>
        <input type="hidden" name="intent" value="save" />
        <Card title={t("risk.title")} data-testid="risk-section">
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <SelectField
              name="lotMode"
              label={t("risk.lotMode")}
              defaultValue={s.lotMode}
              options={[
                { value: "auto", label: t("risk.lotAuto") },
                { value: "fixed", label: t("risk.lotFixed") },
              ]}
              error={err("lotMode")}
            />
            <NumberField name="fixedLot" label={t("risk.fixedLot")} defaultValue={s.fixedLot} error={err("fixedLot")} />
            <LeverageField defaultValue={s.maxLeveragePerTrade} error={err("maxLeveragePerTrade")} />
            <NumberField name="maxDailyTrades" label={t("risk.maxDailyTrades")} defaultValue={s.maxDailyTrades} error={err("maxDailyTrades")} />
            <NumberField name="maxDrawdownPct" label={t("risk.maxDrawdownPct")} defaultValue={s.maxDrawdownPct} error={err("maxDrawdownPct")} />
            <NumberField name="dailyLossLimitPct" label={t("risk.dailyLossLimitPct")} defaultValue={s.dailyLossLimitPct} error={err("dailyLossLimitPct")} />
            <NumberField name="maxTrades" label={t("risk.maxTrades")} defaultValue={s.maxTrades} error={err("maxTrades")} />
            <NumberField name="tpRatio" label={t("risk.tpRatio")} defaultValue={s.tpRatio} error={err("tpRatio")} />
            <NumberField name="slRatio" label={t("risk.slRatio")} defaultValue={s.slRatio} error={err("slRatio")} />
            <NumberField name="aiSettings.cooldownSec" label={t("risk.cooldownSec")} defaultValue={s.aiSettings.cooldownSec} error={err("aiSettings.cooldownSec")} />
          </div>
          <div className="mt-4">
            <CheckboxField name="dailyLossIncludesUnrealized" label={t("risk.dailyLossIncludesUnrealized")} defaultChecked={s.dailyLossIncludesUnrealized} />
          </div>
          <div className="mt-4 sm:max-w-md" data-testid="trading-day-boundary">
            <TradingDayField defaultValue={s.tradingDayBoundary} error={err("tradingDayBoundary")} />
          </div>

          <fieldset className="mt-5 rounded-xl border border-white/10 p-4" data-testid="trading-hours">
            <legend className="px-1 text-sm font-semibold text-slate-300">{t("risk.tradingHours")}</legend>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              <div className="flex items-end">
                <CheckboxField name="tradingHours.enabled" label={t("risk.tradingHoursEnabled")} defaultChecked={s.tradingHours.enabled} />
              </div>
              <TimeField name="tradingHours.start" label={t("risk.start")} defaultValue={s.tradingHours.start} error={err("tradingHours.start")} />
              <TimeField name="tradingHours.end" label={t("risk.end")} defaultValue={s.tradingHours.end} error={err("tradingHours.end")} />
            </div>
            <div className="mt-4">
              <DaysField
                name={WEEKDAYS_FIELD}
                legend={t("risk.days")}
                options={WEEKDAY_OPTIONS.map((day) => ({ value: day, label: t(`risk.weekday.${day}`) }))}
                defaultValue={s.tradingHours.days}
                error={err(WEEKDAYS_FIELD)}
              />
            </div>
            <p className="mt-2 text-xs text-slate-500">{t("risk.tradingHoursHint", { timezone: d.preferences.timezone.replace(/_/g, " ") })}</p>
          </fieldset>

          <div className="mt-5 grid gap-4 sm:grid-cols-2">
            <SelectField
              name="weekend.mode"
              label={t("risk.weekend")}
              defaultValue={s.weekend.mode}
              options={WEEKEND_MODE_OPTIONS.map((m) => ({ value: m, label: t(`risk.weekendMode.${m}`) }))}
              hint={t("risk.weekendHint")}
              error={err("weekend.mode")}
            />
            <NumberField name="weekend.minutesBeforeClose" label={t("risk.minutesBeforeClose")} defaultValue={s.weekend.minutesBeforeClose} error={err("weekend.minutesBeforeClose")} />
          </div>
        </Card>

        <Card
          title={t("ai.title")}
          data-testid="ai-section"
          action={
            <Link to="/backtest" className="text-sm font-semibold text-emerald-300 underline-offset-2 hover:underline" data-testid="backtest-link">
              {t("backtest:settingsLink")}
            </Link>
          }
        >
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <SelectField
              name="aiSettings.tradingStyle"
              label={t("ai.tradingStyle")}
              value={style}
              onChange={(e) => {
                setStyle(e.target.value);
                setScalperOn(scalperEnabledFor(e.target.value));
              }}
              options={STYLE_OPTIONS.map((v) => ({ value: v, label: t(`ai.style.${v}`) }))}
            />
            <div className="flex items-end">
              <CheckboxField name="aiSettings.scalper.enabled" label={t("ai.scalperEnabled")} checked={scalperOn} onChange={(e) => setScalperOn(e.target.checked)} />
            </div>
            <TextField
              name="instruments"
              label={t("ai.instruments")}
              defaultValue={s.instruments === "*" ? "*" : s.instruments.join(", ")}
              hint={t("ai.instrumentsHint", { list: SUPPORTED_INSTRUMENTS.join(", ") })}
              error={err("instruments")}
            />
          </div>
          <ReportCard card={d.reportCards[style as keyof typeof d.reportCards] ?? d.reportCards[s.aiSettings.tradingStyle]} className="mt-5 bg-slate-950/40" />

          <fieldset
            hidden={!showScalperBlock(style, scalperOn)}
            className="mt-5 rounded-xl border border-sky-400/20 bg-sky-500/5 p-4"
            data-testid="scalper-block"
          >
            <legend className="px-1 text-sm font-semibold text-sky-300">{t("ai.scalperTitle")}</legend>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              <NumberField name="aiSettings.scalper.maxHoldSec" label={t("ai.maxHoldSec")} defaultValue={s.aiSettings.scalper.maxHoldSec} error={err("aiSettings.scalper.maxHoldSec")} />
              <NumberField name="aiSettings.scalper.microAtrPeriod" label={t("ai.microAtrPeriod")} defaultValue={s.aiSettings.scalper.microAtrPeriod} error={err("aiSettings.scalper.microAtrPeriod")} />
              <NumberField name="aiSettings.scalper.impulseLookback" label={t("ai.impulseLookback")} defaultValue={s.aiSettings.scalper.impulseLookback} error={err("aiSettings.scalper.impulseLookback")} />
              <NumberField name="aiSettings.scalper.impulseThreshold" label={t("ai.impulseThreshold")} defaultValue={s.aiSettings.scalper.impulseThreshold} error={err("aiSettings.scalper.impulseThreshold")} />
              <NumberField name="aiSettings.scalper.trailMult" label={t("ai.trailMult")} defaultValue={s.aiSettings.scalper.trailMult} error={err("aiSettings.scalper.trailMult")} />
            </div>
            <div className="mt-4 grid gap-2 sm:grid-cols-3">
              <CheckboxField name="aiSettings.scalper.m1FallbackToM5" label={t("ai.m1FallbackToM5")} defaultChecked={s.aiSettings.scalper.m1FallbackToM5} />
              <CheckboxField name="aiSettings.scalper.trailWithMicroAtr" label={t("ai.trailWithMicroAtr")} defaultChecked={s.aiSettings.scalper.trailWithMicroAtr} />
              <CheckboxField name="aiSettings.scalper.reduceTpOnChop" label={t("ai.reduceTpOnChop")} defaultChecked={s.aiSettings.scalper.reduceTpOnChop} />
            </div>
          </fieldset>

          <div className="mt-5 grid gap-4 sm:grid-cols-2">
            <div className="flex items-end">
              <CheckboxField name="aiSettings.autoTimeframeSelection" label={t("ai.autoTimeframe")} defaultChecked={s.aiSettings.autoTimeframeSelection} />
            </div>
            <SelectField
              name="timeframe"
              label={t("ai.timeframe")}
              defaultValue={s.timeframe ?? ""}
              hint={t("ai.timeframeHint")}
              options={[{ value: "", label: t("ai.timeframeNone") }, ...AI_TIMEFRAMES.map((tf) => ({ value: tf, label: tf }))]}
              error={err("timeframe")}
            />
          </div>

          <h3 className="mb-2 mt-5 text-sm font-semibold text-slate-300">{t("ai.indicators")}</h3>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5">
            {(["rsi", "macd", "ema", "bollinger", "stochastic"] as const).map((k) => (
              <CheckboxField key={k} name={`aiSettings.indicators.${k}`} label={t(`ai.${k}`)} defaultChecked={s.aiSettings.indicators[k]} />
            ))}
          </div>

          <h3 className="mb-2 mt-5 text-sm font-semibold text-slate-300">{t("ai.news")}</h3>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <CheckboxField name="aiSettings.news.enabled" label={t("ai.newsEnabled")} defaultChecked={s.aiSettings.news.enabled} />
            <CheckboxField name="aiSettings.news.impactedOnly" label={t("ai.impactedOnly")} defaultChecked={s.aiSettings.news.impactedOnly} />
            <SelectField
              name="aiSettings.news.sensitivity"
              label={t("ai.sensitivity")}
              defaultValue={s.aiSettings.news.sensitivity}
              options={NEWS_SENSITIVITIES.map((v) => ({ value: v, label: t(`ai.sensitivityLevel.${v}`) }))}
            />
            <NumberField name="aiSettings.news.blackout.beforeMin" label={t("ai.beforeMin")} defaultValue={s.aiSettings.news.blackout.beforeMin} error={err("aiSettings.news.blackout.beforeMin")} />
            <NumberField name="aiSettings.news.blackout.afterMin" label={t("ai.afterMin")} defaultValue={s.aiSettings.news.blackout.afterMin} error={err("aiSettings.news.blackout.afterMin")} />
          </div>
        </Card>

        <Card title={t("prefs.title")} data-testid="prefs-section">
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              name="preferences.language"
              label={t("prefs.language")}
              defaultValue={LANGUAGES.includes(d.preferences.language as (typeof LANGUAGES)[number]) ? d.preferences.language : "pt"}
              options={LANGUAGES.map((l) => ({ value: l, label: t(`prefs.lang.${l}`) }))}
              error={err("preferences.language")}
            />
            <SelectField
              name="preferences.timezone"
              label={t("prefs.timezone")}
              defaultValue={TIMEZONES.includes(d.preferences.timezone as (typeof TIMEZONES)[number]) ? d.preferences.timezone : TIMEZONES[0]}
              options={TIMEZONES.map((z) => ({ value: z, label: z.replace(/_/g, " ") }))}
              error={err("preferences.timezone")}
            />
            {/* Issue 22: the display currency (amounts also shown converted at the broker's rate). */}
            <SelectField
              name="preferences.currency"
              label={t("display-currency:field.label")}
              defaultValue={d.preferences.currency}
              options={DISPLAY_CURRENCIES.map((c) => ({ value: c, label: t(`display-currency:field.option.${c}`) }))}
              hint={t("display-currency:field.hint")}
              error={err("preferences.currency")}
            />
          </div>
        </Card>
      </Form>

      <EdgeOverridesSection
        style={s.aiSettings.tradingStyle}
        pairs={d.edge.pairs}
        confirm={actionData?.intent === EDGE_OVERRIDE_INTENT ? (actionData.confirm ?? null) : null}
        message={actionData?.intent === EDGE_OVERRIDE_INTENT && actionData.message ? { ok: actionData.ok, text: actionData.message } : null}
      />

      <PushInfoCard topics={d.pushTopics} message={actionData?.intent === "push-topics" ? { ok: actionData.ok, text: actionData.message } : null} />

      <div className={clsx("fixed inset-x-0 bottom-16 z-20 border-t border-white/10 bg-slate-950/95 px-4 py-3 backdrop-blur md:hidden")}>
        <Button type="submit" form={FORM_ID} name="intent" value="save" loading={saving} className="w-full" data-testid="save-all-mobile">
          {saving ? t("saving") : t("saveAllMobile")}
        </Button>
      </div>
    </main>
  );
}

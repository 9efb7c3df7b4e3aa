/**
 * Settings page cards outside the settings form: the subscription card (licence status Válida /
 * Expirada / …, plan, end date) and the broker connection section (status, account, environment,
 * connect through the existing wizard, disconnect — a POST form that also works without JavaScript),
 * plus the push card (topics and this device's notifications).
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useDisplay } from "~/lib/hooks";
import { PUSH_TOPICS, type PushTopic } from "~/lib/push";
import { enablePush, pushState, type PushState } from "~/lib/push-client";
import { BrokerWizard } from "../broker-wizard";
import { PlugIcon } from "../icons";
import { Badge, Button, Card, type Tone } from "../ui";

/** The settings catalog's line for each push topic. */
const TOPIC_LABEL: Record<PushTopic, string> = { trades: "tradeOpenClose", ai: "aiDecisions", risk: "riskAlerts", system: "systemStatus" };

const LICENCE_TONE: Record<string, Tone> = { valid: "green", expired: "red", pending: "amber", admin: "blue", none: "grey" };

/** Subscription card from the public user's licence view. */
export function SubscriptionCard({
  licenseStatus,
  planName,
  endDate,
  licenseKey,
}: {
  licenseStatus: string;
  planName: string | null;
  endDate: string | null;
  licenseKey: string | null;
}) {
  const { t } = useTranslation("settings");
  const fmt = useDisplay();
  const status = LICENCE_TONE[licenseStatus] ? licenseStatus : "none";
  return (
    <Card title={t("subscription.title")} data-testid="subscription-card">
      <div className="flex items-center justify-between gap-2">
        <p className="text-lg font-semibold text-white">{planName ?? t("subscription.noPlan")}</p>
        <Badge tone={LICENCE_TONE[status]} data-testid="licence-status">
          {t(`licence.${status}`, { ns: "common" })}
        </Badge>
      </div>
      <dl className="mt-3 space-y-1.5 text-sm">
        <div className="flex justify-between gap-2">
          <dt className="text-slate-400">{t("subscription.endDate")}</dt>
          <dd className="text-slate-200">{fmt.date(endDate)}</dd>
        </div>
        {licenseKey && (
          <div className="flex justify-between gap-2">
            <dt className="text-slate-400">{t("subscription.key")}</dt>
            <dd className="font-mono text-slate-200">{licenseKey.slice(0, 8)}</dd>
          </div>
        )}
      </dl>
      <Link to="/billing" className="mt-3 inline-block text-sm font-semibold text-emerald-300 hover:underline">
        {t("subscription.manage")}
      </Link>
    </Card>
  );
}

/** What the broker section shows about the stored connection. */
export interface BrokerView {
  isConnected: boolean;
  accountId: string | null;
  accountName: string | null;
  environment: string | null;
}

/** Broker connection: status, account, environment; connect (wizard) and disconnect. */
export function BrokerSection({ broker, onConnected, message }: { broker: BrokerView; onConnected: () => void; message?: string | null }) {
  const { t } = useTranslation("settings");
  const [wizard, setWizard] = useState(false);
  const navigation = useNavigation();
  const disconnecting = navigation.state !== "idle" && navigation.formData?.get("intent") === "disconnect";
  return (
    <Card
      title={
        <span className="flex items-center gap-2">
          <PlugIcon size={16} /> {t("broker.title")}
        </span>
      }
      action={
        <Badge tone={broker.isConnected ? "green" : "grey"} data-testid="broker-status">
          {broker.isConnected ? t("broker.connected") : t("broker.disconnected")}
        </Badge>
      }
      data-testid="broker-section"
    >
      {broker.isConnected ? (
        <dl className="space-y-1.5 text-sm">
          <div className="flex justify-between gap-2">
            <dt className="text-slate-400">{t("broker.account")}</dt>
            <dd className="text-right text-slate-200">
              {broker.accountName} <span className="font-mono text-xs text-slate-400">({broker.accountId})</span>
            </dd>
          </div>
          <div className="flex justify-between gap-2">
            <dt className="text-slate-400">{t("broker.environment")}</dt>
            <dd className="text-slate-200">{broker.environment === "live" ? t("broker.live") : t("broker.practice")}</dd>
          </div>
        </dl>
      ) : (
        <p className="text-sm text-slate-300">{t("broker.none")}</p>
      )}
      {message && (
        <p role="status" className="mt-2 text-sm text-emerald-300">
          {message}
        </p>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        <Button type="button" variant={broker.isConnected ? "secondary" : "primary"} onClick={() => setWizard(true)} data-testid="broker-connect">
          {broker.isConnected ? t("broker.change") : t("broker.connect")}
        </Button>
        {broker.isConnected && (
          <Form
            method="post"
            onSubmit={(e) => {
              if (!window.confirm(t("broker.disconnectConfirm"))) e.preventDefault();
            }}
          >
            <input type="hidden" name="intent" value="disconnect" />
            <Button type="submit" variant="danger" loading={disconnecting}>
              {t("broker.disconnect")}
            </Button>
          </Form>
        )}
      </div>
      <noscript>
        <p className="mt-2 text-xs text-slate-500">{t("broker.needsJs")}</p>
      </noscript>
      <BrokerWizard
        open={wizard}
        onClose={() => setWizard(false)}
        onConnected={() => {
          setWizard(false);
          onConnected();
        }}
      />
    </Card>
  );
}

/**
 * The push card (PRODUCT.md §2 settings push card; issue 11): what push brings, one switch per topic
 * (trades, AI/timeframe, risk, system — a POST form, intent `push-topics`, that works without
 * JavaScript; saved for every device of the user), and with JavaScript this device's state with
 * "Ativar notificações" (the permission prompt needs this click) and "Enviar teste".
 */
export function PushInfoCard({ topics, message }: { topics: readonly PushTopic[]; message?: { ok: boolean; text: string } | null }) {
  const { t } = useTranslation("settings");
  const { t: tp } = useTranslation("push");
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "push-topics";
  const [state, setState] = useState<PushState | "checking" | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    setState("checking");
    void pushState().then(setState);
  }, []);
  async function enable() {
    setBusy(true);
    setNote(null);
    setState(await enablePush(true));
    setBusy(false);
  }
  async function test() {
    setBusy(true);
    try {
      const res = await fetch("/api/push/test", { method: "POST", headers: { "Content-Type": "application/json" }, credentials: "same-origin", body: "{}" });
      const body = (await res.json().catch(() => ({}))) as { message?: string };
      setNote(body.message ?? null);
    } catch {
      setNote(null);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card title={t("push.title")} data-testid="push-info">
      <p className="text-sm text-slate-300">{t("push.intro")}</p>
      <Form method="post" key={topics.join(",")} className="mt-3 space-y-3" data-testid="push-topics-form">
        <input type="hidden" name="intent" value="push-topics" />
        <fieldset className="grid gap-2 sm:grid-cols-2">
          <legend className="sr-only">{tp("card.topicsLegend")}</legend>
          {PUSH_TOPICS.map((topic) => (
            <label key={topic} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl bg-white/[0.03] px-3 py-2 text-sm text-slate-200 ring-1 ring-white/5">
              <input type="checkbox" role="switch" name="pushTopics" value={topic} defaultChecked={topics.includes(topic)} className="h-5 w-5 accent-emerald-500" data-testid={`push-topic-${topic}`} />
              <span>{t(`push.${TOPIC_LABEL[topic]}`)}</span>
            </label>
          ))}
        </fieldset>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="secondary" loading={saving} data-testid="push-topics-save">
            {tp("card.save")}
          </Button>
          {message && (
            <p role="status" className={message.ok ? "text-sm text-emerald-300" : "text-sm text-rose-300"} data-testid="push-topics-message">
              {message.text}
            </p>
          )}
        </div>
      </Form>
      {state && (
        <div className="mt-4 flex flex-wrap items-center gap-3 border-t border-white/10 pt-3">
          <p className="text-sm text-slate-400" data-testid="push-device-state" data-state={state}>
            {tp(`card.state.${state}`)}
          </p>
          {(state === "default" || state === "failed") && (
            <Button type="button" onClick={() => void enable()} loading={busy} data-testid="push-enable">
              {tp("card.enable")}
            </Button>
          )}
          {state === "subscribed" && (
            <Button type="button" variant="secondary" onClick={() => void test()} loading={busy} data-testid="push-test">
              {tp("card.test")}
            </Button>
          )}
          {note && (
            <p role="status" className="text-sm text-slate-300">
              {note}
            </p>
          )}
        </div>
      )}
    </Card>
  );
}

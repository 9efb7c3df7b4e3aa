/**
 * Settings page cards outside the settings form: the subscription card (licence status Válida /
 * Expirada / …, plan, end date) and the broker connection section (status, account, environment,
 * connect through the existing wizard, disconnect — a POST form that also works without JavaScript),
 * plus the push-notification information.
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useDisplay } from "~/lib/hooks";
import { BrokerWizard } from "../broker-wizard";
import { PlugIcon } from "../icons";
import { Badge, Button, Card, type Tone } from "../ui";

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

/** Push-notification information (automatic at login). */
export function PushInfoCard() {
  const { t } = useTranslation("settings");
  return (
    <Card title={t("push.title")} data-testid="push-info">
      <p className="text-sm text-slate-300">{t("push.intro")}</p>
      <ul className="mt-2 list-inside list-disc space-y-1 text-sm text-slate-300">
        <li>{t("push.tradeOpenClose")}</li>
        <li>{t("push.aiDecisions")}</li>
        <li>{t("push.riskAlerts")}</li>
        <li>{t("push.systemStatus")}</li>
      </ul>
    </Card>
  );
}

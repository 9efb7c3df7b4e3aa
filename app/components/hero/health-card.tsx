/**
 * 'Saúde do Sistema' (PRODUCT.md §2 Hero, desktop variant only): licence (with its end date), broker
 * connection, AI state (manage-only, active, paused), the server as the status polling sees it, and
 * the browser's connection.
 */
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ShieldIcon } from "~/components/icons";
import { Badge, Card } from "~/components/ui";
import { useDisplay } from "~/lib/hooks";
import { licenceLabel } from "~/lib/trading";

/** What the health card shows. */
export interface HealthView {
  licenseStatus: string | null | undefined;
  hasValidLicense: boolean;
  licenseEnd: string | null | undefined;
  brokerConnected: boolean;
  /** The broker's error text while connected (amber 'Com erro'). */
  brokerError: string | null;
  manageOnly: boolean;
  botActive: boolean;
  /** The status polling's error (the server reads offline). */
  pollError: string | null;
  online: boolean;
}

/** One label/badge row. */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <li className="flex items-center justify-between gap-2">
      <span className="text-slate-400">{label}</span>
      {children}
    </li>
  );
}

/** The system-health card of `h`. */
export function HealthCard({ health: h }: { health: HealthView }) {
  const { t } = useTranslation("hero");
  const fmt = useDisplay();
  const lic = licenceLabel(h.licenseStatus);
  return (
    <Card
      title={
        <span className="flex items-center gap-2">
          <ShieldIcon size={16} /> {t("health.title")}
        </span>
      }
      data-testid="health-card"
    >
      <ul className="space-y-2 text-sm">
        <Row label={t("health.licence")}>
          <Badge tone={lic.tone} data-testid="health-licence">
            {t(`common:${lic.key}`)}
            {h.licenseEnd && h.hasValidLicense ? ` ${t("health.until", { date: fmt.date(h.licenseEnd) })}` : ""}
          </Badge>
        </Row>
        <Row label={t("health.broker")}>
          <Badge tone={h.brokerConnected ? (h.brokerError ? "amber" : "green") : "grey"} data-testid="health-broker">
            {h.brokerConnected ? (h.brokerError ? t("health.brokerError") : t("health.brokerOk")) : t("health.brokerNone")}
          </Badge>
        </Row>
        <Row label={t("health.ai")}>
          <Badge tone={h.manageOnly ? "amber" : h.botActive ? "green" : "red"} data-testid="health-ai">
            {h.manageOnly ? t("health.aiManageOnly") : h.botActive ? t("health.aiActive") : t("health.aiPaused")}
          </Badge>
        </Row>
        <Row label={t("health.system")}>
          <Badge tone={h.pollError ? "red" : "green"} data-testid="health-system">
            {h.pollError ? t("connection.systemOffline") : t("health.online")}
          </Badge>
        </Row>
        <Row label={t("health.connection")}>
          <Badge tone={h.online ? "green" : "grey"}>{h.online ? t("health.online") : t("health.offline")}</Badge>
        </Row>
      </ul>
    </Card>
  );
}

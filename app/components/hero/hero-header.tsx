/** The hero screen's top row (PRODUCT.md §2 Hero): 'Bem-vindo de volta', the greeting and the state badge. */
import clsx from "clsx";
import { useTranslation } from "react-i18next";
import { Badge, type Tone } from "~/components/ui";
import type { HeroView } from "~/lib/trading";

/** The badge's tone per hero state (PRODUCT.md §4). */
const BADGE_TONE: Record<HeroView["badgeKey"], Tone> = {
  "badge.online": "green",
  "badge.offline": "grey",
  "badge.connect": "orange",
  "badge.noLicence": "amber",
  "badge.manageOnly": "amber",
};

/** The greeting (`name`: the user's full name, else e-mail) and the state badge of `view`. */
export function HeroHeader({ name, view }: { name: string; view: HeroView }) {
  const { t } = useTranslation("hero");
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <div>
        <p className="text-sm text-slate-400">{t("welcome")}</p>
        <h1 className="text-xl font-bold text-white md:text-2xl" data-testid="greeting">
          {t("common:greeting", { name })}
        </h1>
      </div>
      <Badge tone={BADGE_TONE[view.badgeKey]} data-testid="status-badge">
        <span className={clsx("h-2 w-2 rounded-full", view.badgeKey === "badge.online" ? "bg-emerald-400" : "bg-current")} aria-hidden="true" />
        {t(view.badgeKey)}
      </Badge>
    </div>
  );
}

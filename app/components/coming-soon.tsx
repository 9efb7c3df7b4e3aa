/** Placeholder body for pages that arrive in a later issue. */
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** A titled card saying the page arrives soon, with a way back to the trading screen. */
export function ComingSoon({ title, subtitle, children }: { title: string; subtitle?: string; children?: ReactNode }) {
  const { t } = useTranslation("common");
  return (
    <main className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-2xl font-bold text-white">{title}</h1>
      {subtitle && <p className="mt-1 text-slate-400">{subtitle}</p>}
      <div className="mt-6 rounded-2xl border border-white/10 bg-slate-900/70 p-6">
        <p className="text-slate-200">{t("comingSoon.body")}</p>
        {children}
        <Link to="/" className="mt-4 inline-flex min-h-11 items-center rounded-xl bg-white/10 px-4 py-2 text-sm font-semibold hover:bg-white/15">
          {t("comingSoon.back")}
        </Link>
      </div>
    </main>
  );
}

/**
 * The frame of the public legal pages /termos and /privacidade (PRODUCT.md §2: linked from the
 * subscription modal, opened in a new tab): logo, title, content in a readable column on any width,
 * the legal entity line (the operator's configured identity; clearly marked placeholders outside
 * production when it is not configured) and links to
 * the other document and home. Strings come from the `legal` catalogs (pt, en, es).
 */
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Logo } from "~/components/layout";

/** The operator's identity as the page receives it (app/services/platform/operator.server.ts; null = not configured). */
export type OperatorFields = Record<"company" | "cnpj" | "address" | "dpoName" | "dpoEmail" | "supportEmail", string | null>;

/**
 * The legal entity's fields as interpolation values: the configured operator's, else the catalog's
 * clearly marked placeholders ("[CNPJ — a definir]"), which only a non-production server can reach.
 */
export function useLegalEntity(operator: OperatorFields): Record<string, string> {
  const { t } = useTranslation("legal");
  const keys = ["company", "cnpj", "address", "dpoName", "dpoEmail", "supportEmail"] as const;
  return Object.fromEntries(keys.map((k) => [k, operator[k] ?? t(`entity.${k}`)]));
}

/** A numbered document section: title and paragraphs. */
export interface LegalSection {
  title: string;
  body: string[];
}

/** The sections of a document, as an ordered list of headed paragraphs. */
export function LegalSections({ sections, testId }: { sections: LegalSection[]; testId?: string }) {
  return (
    <ol className="space-y-6" data-testid={testId}>
      {sections.map((s) => (
        <li key={s.title}>
          <h3 className="mb-2 text-base font-semibold text-emerald-300">{s.title}</h3>
          {s.body.map((p) => (
            <p key={p} className="mb-2">
              {p}
            </p>
          ))}
        </li>
      ))}
    </ol>
  );
}

/** The page frame; `current` marks the document shown in the footer navigation. */
export function LegalPage({ title, current, operator, children }: { title: string; current: "terms" | "privacy"; operator: OperatorFields; children: ReactNode }) {
  const { t } = useTranslation("legal");
  const entity = useLegalEntity(operator);
  const other = current === "terms" ? { to: "/privacidade", label: t("nav.privacy") } : { to: "/termos", label: t("nav.terms") };
  return (
    <main className="mx-auto w-full max-w-3xl px-4 py-8 text-base leading-relaxed text-slate-300 sm:py-12">
      <div className="mb-6 flex justify-center">
        <Logo className="text-xl" />
      </div>
      <article className="rounded-2xl border border-white/10 bg-slate-900/80 p-5 sm:p-8">
        <h1 className="mb-4 text-2xl font-bold text-white sm:text-3xl">{title}</h1>
        {children}
        <p className="mt-8 border-t border-white/10 pt-4 text-sm text-slate-400" data-testid="legal-provider">
          {t("provider", entity)}
        </p>
      </article>
      <nav aria-label={t("nav.label")} className="mt-6 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm">
        <Link to={other.to} className="text-emerald-300 hover:underline">
          {other.label}
        </Link>
        <Link to="/" className="text-slate-400 hover:text-slate-100 hover:underline">
          {t("nav.back")}
        </Link>
      </nav>
    </main>
  );
}

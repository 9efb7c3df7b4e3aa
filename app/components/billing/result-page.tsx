/**
 * The frame of the pages Stripe Checkout returns to (/subscription/success, /subscription/canceled;
 * PRODUCT.md §2): no app chrome, the logo, one centred card with an icon, a title, a text and actions.
 */
import clsx from "clsx";
import type { ReactNode } from "react";
import { Logo } from "~/components/layout";

/** Classes of the card's primary and secondary link buttons. */
export const RESULT_PRIMARY = "inline-flex min-h-11 w-full items-center justify-center rounded-xl bg-emerald-500 px-4 py-2.5 text-sm font-semibold text-slate-950 hover:bg-emerald-400";
export const RESULT_SECONDARY = "inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-xl bg-white/10 px-4 py-2.5 text-sm font-semibold text-slate-100 hover:bg-white/15";

/** A centred result card: icon (with its tone), title, text and actions below. */
export function ResultPage({
  icon,
  tone,
  title,
  children,
  actions,
  testId,
}: {
  icon: ReactNode;
  tone: "green" | "amber" | "red" | "grey";
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  testId?: string;
}) {
  const toneClass = { green: "bg-emerald-500/15 text-emerald-300", amber: "bg-amber-500/15 text-amber-300", red: "bg-rose-500/15 text-rose-300", grey: "bg-white/10 text-slate-300" }[tone];
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-lg flex-col justify-center gap-5 px-4 py-8" data-testid={testId}>
      <div className="flex justify-center">
        <Logo className="text-xl" />
      </div>
      <div className="space-y-5 rounded-3xl border border-white/10 bg-slate-900/80 p-5 text-center shadow-2xl shadow-black/40 sm:p-7">
        <span className={clsx("mx-auto grid h-14 w-14 place-items-center rounded-2xl", toneClass)} aria-hidden="true">
          {icon}
        </span>
        <h1 className="text-2xl font-bold text-white">{title}</h1>
        {children}
        {actions && <div className="space-y-2">{actions}</div>}
      </div>
    </main>
  );
}

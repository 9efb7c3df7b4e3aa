/**
 * Broker (OANDA) connection wizard, a modal in three steps (PRODUCT.md §2 Broker connection modal,
 * §4, §5, §8): 1 intro with benefits, 2 environment + personal token (validated by
 * POST /api/oanda-auth/test-token), 3 account choice and POST /api/oanda-auth/connect.
 * Escape closes; the page behind does not scroll while it is open. Rendered into document.body (a
 * portal): inside a card with a backdrop filter a `fixed` overlay would be confined to the card.
 * Server messages arrive in the user's language (the API renders them: ADR 0007).
 */
import clsx from "clsx";
import { useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "react-i18next";
import { apiFetch } from "~/lib/api";
import { wizardErrorText } from "~/lib/wizard-errors";
import { useDisplay } from "~/lib/hooks";
import { connectSchema, testTokenSchema } from "~/lib/validation";
import { AlertIcon, BoltIcon, ExternalIcon, EyeIcon, EyeOffIcon, ShieldIcon, TargetIcon, XIcon } from "./icons";
import { Banner, Button } from "./ui";
import { AccountRulesLists } from "./account-rules-card";
import type { AccountRulesView } from "~/services/trading/broker-rules.server";

/** One account the token can reach (test-token response). */
export interface BrokerAccountOption {
  id: string;
  name: string;
  currency: string | null;
  balance: string | null;
}

export type Environment = "practice" | "live";

/** OANDA sign-up page (free demo account), opened in a new tab. */
export const OANDA_OPEN_ACCOUNT_URL = "https://www.oanda.com/br-pt/trading/contas/demo/";
/** Where the user generates a personal access token, per environment. */
const TOKEN_PAGE: Record<Environment, string> = {
  practice: "https://www.oanda.com/demo-account/tpa/personal_token",
  live: "https://www.oanda.com/account/tpa/personal_token",
};

/** Body scroll lock while a modal is open. */
function useBodyScrollLock(active: boolean) {
  useEffect(() => {
    if (!active) return;
    const prev = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.body.style.overflow = prev;
    };
  }, [active]);
}

/** Props of the wizard's token step (environment and personal token). */
export interface TokenStepProps {
  environment: Environment;
  onEnvironment: (environment: Environment) => void;
  token: string;
  onToken: (token: string) => void;
  showToken: boolean;
  onToggleShow: () => void;
  busy: "test" | "connect" | null;
  onBack: () => void;
  /** Validates the token (an empty one gets 'Por favor, insira seu token da Oanda'). */
  onSubmit: () => void;
}

/**
 * Wizard step 2: environment choice, token entry with show/hide, help and warning. 'Validar token'
 * is disabled while the token is empty or whitespace or a request runs (PRODUCT.md §5); a forced
 * submit of an empty token still shows the message.
 */
export function TokenStep({ environment, onEnvironment, token, onToken, showToken, onToggleShow, busy, onBack, onSubmit }: TokenStepProps) {
  const { t } = useTranslation("wizard");
  const canValidate = token.trim() !== "" && busy === null;
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        // A forced submit of an empty token (Enter, requestSubmit) still answers 'Por favor, insira seu token da Oanda' (PRODUCT.md §5, §8).
        if (!busy) onSubmit();
      }}
    >
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-300">{t("environment")}</legend>
        <div className="grid grid-cols-2 gap-2">
          {(
            [
              ["practice", t("practice.label"), t("practice.hint")],
              ["live", t("live.label"), t("live.hint")],
            ] as const
          ).map(([value, label, hint]) => (
            <label
              key={value}
              className={clsx(
                "cursor-pointer rounded-2xl p-3 ring-1 transition",
                environment === value ? "bg-emerald-500/10 ring-emerald-400/60" : "bg-white/[0.03] ring-white/10 hover:ring-white/20",
              )}
            >
              <input type="radio" name="environment" value={value} checked={environment === value} onChange={() => onEnvironment(value)} className="sr-only" />
              <span className="block font-semibold text-slate-100">{label}</span>
              <span className="block text-xs text-slate-400">{hint}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div>
        <label htmlFor="oanda-token" className="mb-1.5 block text-sm font-medium text-slate-300">
          {t("tokenLabel")}
        </label>
        <div className="relative">
          <input
            id="oanda-token"
            name="token"
            type={showToken ? "text" : "password"}
            value={token}
            onChange={(e) => onToken(e.target.value)}
            onKeyDown={(e) => {
              // Enter submits; with the button disabled (empty token) the browser ignores it, so the message is shown here.
              if (e.key === "Enter" && !canValidate) {
                e.preventDefault();
                if (!busy) onSubmit();
              }
            }}
            autoComplete="off"
            spellCheck={false}
            placeholder={t("tokenPlaceholder")}
            className="block min-h-11 w-full rounded-xl border border-white/10 bg-slate-950/60 py-2.5 pl-3.5 pr-11 font-mono text-sm text-slate-100 placeholder:font-sans placeholder:text-slate-500 focus:border-emerald-400/60 focus:outline-none focus:ring-2 focus:ring-emerald-400/30"
          />
          <button
            type="button"
            onClick={onToggleShow}
            aria-label={showToken ? t("hideToken") : t("showToken")}
            aria-pressed={showToken}
            className="absolute inset-y-0 right-1 my-auto grid h-9 w-9 place-items-center rounded-lg text-slate-400 hover:bg-white/10 hover:text-slate-100"
          >
            {showToken ? <EyeOffIcon size={18} /> : <EyeIcon size={18} />}
          </button>
        </div>
      </div>
      <details className="rounded-2xl bg-white/[0.03] p-3 text-sm text-slate-300 ring-1 ring-white/5">
        <summary className="cursor-pointer font-medium text-slate-200">{t("help.summary")}</summary>
        <ol className="mt-2 list-decimal space-y-1 pl-5">
          <li>{t("help.login")}</li>
          <li>
            {t("help.openBefore")}{" "}
            <a href={TOKEN_PAGE[environment]} target="_blank" rel="noopener noreferrer" className="text-sky-300 hover:underline">
              {t("help.openLink")}
            </a>
            .
          </li>
          <li>{t("help.generate")}</li>
          <li>{t("help.paste")}</li>
        </ol>
      </details>
      <div className="flex gap-2 rounded-2xl border border-amber-400/30 bg-amber-500/10 p-3 text-sm text-amber-200">
        <AlertIcon size={18} className="mt-0.5 shrink-0" />
        <p>{t("warning")}</p>
      </div>
      <div className="flex gap-2">
        <Button type="button" variant="secondary" onClick={onBack}>
          {t("back")}
        </Button>
        <Button type="submit" className="flex-1" loading={busy === "test"} disabled={!canValidate}>
          {t("validate")}
        </Button>
      </div>
    </form>
  );
}

/** The connection wizard; `onConnected` runs after a successful connect (the parent reloads data). */
export function BrokerWizard({ open, onClose, onConnected }: { open: boolean; onClose: () => void; onConnected: () => void }) {
  const { t } = useTranslation("wizard");
  const fmt = useDisplay();
  const [step, setStep] = useState<1 | 2 | 3>(1);
  const [environment, setEnvironment] = useState<Environment>("practice");
  const [token, setToken] = useState("");
  const [showToken, setShowToken] = useState(false);
  const [accounts, setAccounts] = useState<BrokerAccountOption[]>([]);
  const [accountId, setAccountId] = useState("");
  const [busy, setBusy] = useState<"test" | "connect" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  // Issue 22: what the AI will and will not do on the account just connected (the connect answer's broker-rule check).
  const [rules, setRules] = useState<AccountRulesView | null>(null);
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useBodyScrollLock(open);

  // Reset when (re)opened.
  useEffect(() => {
    if (!open) return;
    setStep(1);
    setToken("");
    setShowToken(false);
    setAccounts([]);
    setAccountId("");
    setError(null);
    setSuccess(null);
    setBusy(null);
  }, [open]);

  // Escape closes; focus moves into the dialog.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onCloseRef.current();
    };
    document.addEventListener("keydown", onKey);
    dialogRef.current?.focus();
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  if (!open) return null;

  async function testToken() {
    setError(null);
    const parsed = testTokenSchema.safeParse({ token, environment });
    if (!token.trim() || !parsed.success) {
      setError(t("errors.token"));
      return;
    }
    setBusy("test");
    try {
      const res = await apiFetch<{ accounts?: BrokerAccountOption[] }>("/api/oanda-auth/test-token", { body: parsed.data });
      const list = res.accounts ?? [];
      setAccounts(list);
      setAccountId(list.length === 1 ? list[0]!.id : "");
      setStep(3);
    } catch (err) {
      setError(wizardErrorText(err, "errors.validate", t));
    } finally {
      setBusy(null);
    }
  }

  async function connect() {
    setError(null);
    const parsed = connectSchema.safeParse({ token, environment, accountId });
    if (!accountId || !parsed.success) {
      setError(t(accountId ? "errors.token" : "errors.account"));
      return;
    }
    setBusy("connect");
    try {
      const res = await apiFetch<{ rules?: AccountRulesView | null }>("/api/oanda-auth/connect", { body: parsed.data });
      setRules(res.rules ?? null);
      setSuccess(t("connected"));
      onConnected();
    } catch (err) {
      setError(wizardErrorText(err, "errors.connect", t));
    } finally {
      setBusy(null);
    }
  }

  const dialog = (
    <div className="fixed inset-0 z-50 flex items-end justify-center bg-black/70 backdrop-blur-sm sm:items-center sm:p-4" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="max-h-[92dvh] w-full max-w-lg overflow-y-auto rounded-t-3xl border border-white/10 bg-slate-900 p-5 shadow-2xl outline-none sm:rounded-3xl sm:p-6"
      >
        <div className="mb-4 flex items-start justify-between gap-4">
          <div>
            <p className="text-xs font-semibold uppercase tracking-wider text-emerald-300">{t("step", { step })}</p>
            <h2 id={titleId} className="mt-1 text-xl font-bold text-white">
              {t(`title.${step}`)}
            </h2>
          </div>
          <button type="button" onClick={onClose} aria-label={t("common:close")} className="grid h-10 w-10 place-items-center rounded-xl text-slate-400 hover:bg-white/10 hover:text-white">
            <XIcon />
          </button>
        </div>
        <div className="mb-5 flex gap-1.5" aria-hidden="true">
          {[1, 2, 3].map((s) => (
            <span key={s} className={clsx("h-1.5 flex-1 rounded-full", s <= step ? "bg-emerald-400" : "bg-white/10")} />
          ))}
        </div>

        {error && (
          <Banner tone="error" onClose={() => setError(null)} className="mb-4">
            {error}
          </Banner>
        )}
        {success && (
          <Banner tone="success" className="mb-4">
            {success}
          </Banner>
        )}
        {success && rules && (
          <div className="mb-4 rounded-2xl border border-white/10 bg-white/5 p-4">
            <AccountRulesLists rules={rules} />
          </div>
        )}

        {step === 1 && (
          <div className="space-y-4">
            <p className="text-slate-300">{t("intro")}</p>
            <ul className="space-y-3">
              {[
                { Icon: BoltIcon, title: t("benefits.execution.title"), text: t("benefits.execution.text") },
                { Icon: TargetIcon, title: t("benefits.control.title"), text: t("benefits.control.text") },
                { Icon: ShieldIcon, title: t("benefits.security.title"), text: t("benefits.security.text") },
              ].map(({ Icon, title, text }) => (
                <li key={title} className="flex gap-3 rounded-2xl bg-white/[0.03] p-3 ring-1 ring-white/5">
                  <span className="grid h-10 w-10 shrink-0 place-items-center rounded-xl bg-emerald-500/15 text-emerald-300">
                    <Icon />
                  </span>
                  <span>
                    <span className="block font-semibold text-slate-100">{title}</span>
                    <span className="block text-sm text-slate-400">{text}</span>
                  </span>
                </li>
              ))}
            </ul>
            <a href={OANDA_OPEN_ACCOUNT_URL} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1.5 text-sm font-medium text-sky-300 hover:underline">
              {t("openAccount")} <ExternalIcon size={14} />
              <span className="sr-only">{t("common:opensInNewTab")}</span>
            </a>
            <Button type="button" className="w-full" onClick={() => setStep(2)}>
              {t("start")}
            </Button>
          </div>
        )}

        {step === 2 && (
          <TokenStep
            environment={environment}
            onEnvironment={setEnvironment}
            token={token}
            onToken={setToken}
            showToken={showToken}
            onToggleShow={() => setShowToken((v) => !v)}
            busy={busy}
            onBack={() => setStep(1)}
            onSubmit={() => void testToken()}
          />
        )}

        {step === 3 && (
          <div className="space-y-4">
            {accounts.length === 0 ? (
              <div className="rounded-2xl bg-white/[0.03] p-4 text-center ring-1 ring-white/5">
                <p className="text-slate-300">{t("noAccounts")}</p>
                <Button type="button" variant="secondary" className="mt-3" loading={busy === "test"} onClick={() => void testToken()}>
                  {t("retry")}
                </Button>
              </div>
            ) : (
              <fieldset>
                <legend className="mb-2 text-sm font-medium text-slate-300">
                  {t("accounts", { environment: environment === "live" ? t("common:account.live") : t("common:account.demo") })}
                </legend>
                <div className="space-y-2" role="radiogroup">
                  {accounts.map((a) => (
                    <label
                      key={a.id}
                      className={clsx(
                        "flex cursor-pointer items-center justify-between gap-3 rounded-2xl p-3 ring-1 transition",
                        accountId === a.id ? "bg-emerald-500/10 ring-emerald-400/60" : "bg-white/[0.03] ring-white/10 hover:ring-white/20",
                      )}
                    >
                      <span className="flex items-center gap-3">
                        <input type="radio" name="accountId" value={a.id} checked={accountId === a.id} onChange={() => setAccountId(a.id)} className="h-4 w-4 accent-emerald-500" />
                        <span>
                          <span className="block font-semibold text-slate-100">{a.name}</span>
                          <span className="block font-mono text-xs text-slate-400">{a.id}</span>
                        </span>
                      </span>
                      <span className="text-right text-sm tabular-nums text-slate-200">{a.balance !== null ? fmt.money(a.balance, a.currency) : (a.currency ?? "")}</span>
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
            <div className="flex gap-2">
              <Button type="button" variant="secondary" onClick={() => setStep(2)} disabled={busy !== null}>
                {t("back")}
              </Button>
              <Button type="button" className="flex-1" onClick={() => void connect()} loading={busy === "connect"} disabled={!accountId || busy !== null || !!success}>
                {t("connect")}
              </Button>
            </div>
          </div>
        )}
      </div>
    </div>
  );
  return typeof document === "undefined" ? dialog : createPortal(dialog, document.body);
}

/**
 * Whether a new account must verify its e-mail before its first session (config EMAIL_VERIFICATION,
 * default `on`; PRODUCT.md §4 "unverified", §7 Auth "register → token, user").
 */
import { msg, type Msg } from "../../../core/i18n/message";
import { config } from "../platform/config.server";

/** True when new accounts wait for the verification link before logging in (EMAIL_VERIFICATION=on). */
export function emailVerificationRequired(): boolean {
  return config().EMAIL_VERIFICATION === "on";
}

/** Why POST /api/auth/register answers `token: null`: 'Verifique seu e-mail para ativar a conta.' */
export const VERIFY_TO_ACTIVATE: Msg = msg("api:auth.verifyToActivate");

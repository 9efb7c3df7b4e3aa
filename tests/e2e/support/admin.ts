/**
 * The e2e admin: playwright.config.ts passes these as ADMIN_EMAIL/ADMIN_PASSWORD to the app, which
 * creates the account (role admin, e-mail verified) at boot (server/bootstrap.ts).
 */
export const E2E_ADMIN = { email: "admin-e2e@teste.com", password: "Admin-E2e-Forte-2026" } as const;

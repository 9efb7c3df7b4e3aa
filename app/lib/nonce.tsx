/**
 * The per-request CSP nonce (server/index.ts makes it, DESIGN.md §7 security headers): entry.server
 * provides it, root.tsx puts it on Remix's inline scripts. Empty in the browser and in dev, where
 * the browser hides nonces and no CSP is sent.
 */
import { createContext, useContext } from "react";

const NonceContext = createContext("");

/** Provides the nonce to the document. */
export const NonceProvider = NonceContext.Provider;

/** The nonce of this render ("" when none). */
export function useNonce(): string {
  return useContext(NonceContext);
}

/**
 * Secrets at rest: AES-256-GCM with `ENCRYPTION_KEY` (DESIGN.md §5, §7). Output format
 * `v1:<iv b64>:<tag b64>:<ciphertext b64>`. Also token hashing for sessions (SHA-256, hex).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { config } from "./config.server";

function key(): Buffer {
  const hex = config().ENCRYPTION_KEY;
  if (!hex) throw new Error("ENCRYPTION_KEY ausente");
  return Buffer.from(hex, "hex");
}

/** Encrypts a UTF-8 string. */
export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(":");
}

/** Decrypts what `encryptSecret` produced. @throws Error when the key is wrong or the data was altered. */
export function decryptSecret(stored: string): string {
  const [v, iv, tag, body] = stored.split(":");
  if (v !== "v1" || !iv || !tag || !body) throw new Error("Segredo armazenado em formato desconhecido");
  const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
}

/** A random URL-safe token (session tokens, licence keys). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** SHA-256 hex of a token: what the database stores instead of the token itself. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Masks a secret for display: first 4 and last 4 characters. */
export function maskSecret(secret: string): string {
  return secret.length <= 8 ? "••••" : `${secret.slice(0, 4)}••••${secret.slice(-4)}`;
}

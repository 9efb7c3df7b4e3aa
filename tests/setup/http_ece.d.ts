/** Types for http_ece 1.2 (no @types package): the decrypt side the push tests use (RFC 8188 aes128gcm). */
declare module "http_ece" {
  import type { ECDH } from "node:crypto";
  interface Params {
    version: "aes128gcm" | "aesgcm";
    /** The receiver's key pair (the subscriber's). */
    privateKey?: ECDH;
    /** The subscription's auth secret, base64url or bytes. */
    authSecret?: string | Buffer;
    dh?: string | Buffer;
    salt?: string | Buffer;
  }
  const ece: { decrypt(buffer: Buffer, params: Params): Buffer; encrypt(buffer: Buffer, params: Params): Buffer };
  export default ece;
}

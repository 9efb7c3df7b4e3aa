/**
 * The client's IP address inside Remix (issue 8 item 9). Express works it out once per request as
 * `req.ip`, from the socket and `X-Forwarded-For` under the `trust proxy` setting (config
 * `TRUST_PROXY`: the right-most hop that is not a trusted proxy); server/index.ts copies it into
 * the `CLIENT_IP_HEADER` request header, overwriting whatever the client sent, before Remix builds
 * its `Request`. Every per-IP key (the auth rate limiter, the e-mail request limits, the session's
 * recorded address) therefore uses the same value, and a client cannot choose it.
 */

/** Request header carrying Express's `req.ip` into Remix; any value sent by the client is replaced. */
export const CLIENT_IP_HEADER = "x-forex-ia-client-ip";

/** The client IP of a request as Express resolved it (`req.ip`), or null when unknown. */
export function clientIp(request: Request): string | null {
  return request.headers.get(CLIENT_IP_HEADER)?.trim() || null;
}

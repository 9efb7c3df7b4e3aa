/**
 * Wire time formats of OANDA v20 (oanda/PROTOCOL.md §2): RFC3339 UTC with 9 fractional digits
 * ("2017-03-09T13:22:13.832587780Z") or UNIX seconds as a string with 9 decimals.
 */

/** Epoch ms → RFC3339 with nanoseconds, e.g. 0 → "1970-01-01T00:00:00.000000000Z". */
export function rfc3339(ms: number): string {
  const iso = new Date(ms).toISOString(); // "…T13:22:13.832Z" (years 0–9999: fixed width)
  return `${iso.slice(0, -1)}000000Z`;
}

/** Epoch ms → OANDA UNIX form, e.g. 1509281144757 → "1509281144.757000000". */
export function unixString(ms: number): string {
  const sec = Math.floor(ms / 1000);
  const frac = String(ms - sec * 1000).padStart(3, "0");
  return `${sec}.${frac}000000`;
}

const RFC_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const RFC_NOZONE_RE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?$/;
const UNIX_RE = /^\d{1,11}(\.\d{1,9})?$/;

/**
 * Parses a DateTime query/body value the way OANDA does: RFC3339 (any zone; no zone is read as UTC
 * here, unlike OANDA which takes New York time — clients must send `Z`), or UNIX seconds.
 * @returns epoch ms (sub-ms digits truncated), or null when not a valid time.
 */
export function parseDateTime(s: string): number | null {
  if (UNIX_RE.test(s)) return Math.floor(Number(s) * 1000);
  if (RFC_RE.test(s) || RFC_NOZONE_RE.test(s)) {
    const norm = s.replace(/(\.\d{3})\d+/, "$1");
    const ms = Date.parse(RFC_NOZONE_RE.test(s) && s.includes("T") ? `${norm}Z` : norm);
    return Number.isFinite(ms) ? ms : null;
  }
  return null;
}

const TIME_KEYS = new Set([
  "time", "openTime", "closeTime", "createTime", "filledTime", "cancelledTime", "triggeredTime",
  "timestamp", "createdTime", "gtdTime", "resettablePLTime", "lastMarginCallExtensionTime",
]);

/**
 * Deep copy of a response body with every RFC3339 time field rewritten to UNIX form, for clients
 * sending `Accept-Datetime-Format: UNIX`. Only keys OANDA uses for DateTimes are touched.
 */
export function toUnixTimes(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(toUnixTimes);
  if (body && typeof body === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) {
      if (TIME_KEYS.has(k) && typeof v === "string" && RFC_RE.test(v)) out[k] = unixString(Date.parse(v.replace(/(\.\d{3})\d+/, "$1")));
      else out[k] = toUnixTimes(v);
    }
    return out;
  }
  return body;
}

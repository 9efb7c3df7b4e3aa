/** Pure notification helpers: the 99+ badge, the relative time rules with a fixed now, the list query and its links. */
import { describe, expect, it } from "vitest";
import { formatUnreadBadge, notificationTime, pageQuery, parseListQuery } from "../../../app/lib/notifications";

const NOW = Date.parse("2026-03-10T15:00:00Z");
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe("formatUnreadBadge", () => {
  it("hides the badge for zero or nonsense, shows the number up to 99 and caps at 99+", () => {
    expect(formatUnreadBadge(0)).toBe("");
    expect(formatUnreadBadge(-3)).toBe("");
    expect(formatUnreadBadge(Number.NaN)).toBe("");
    expect(formatUnreadBadge(undefined)).toBe("");
    expect(formatUnreadBadge(1)).toBe("1");
    expect(formatUnreadBadge(99)).toBe("99");
    expect(formatUnreadBadge(100)).toBe("99+");
    expect(formatUnreadBadge(12_345)).toBe("99+");
  });
});

describe("notificationTime", () => {
  it("says 'Agora' under a minute (and for a clock slightly ahead)", () => {
    expect(notificationTime(ago(0), NOW)).toBe("Agora");
    expect(notificationTime(ago(59_999), NOW)).toBe("Agora");
    expect(notificationTime(new Date(NOW + 5000), NOW)).toBe("Agora");
    expect(notificationTime(ago(30_000), NOW, "UTC", "Now")).toBe("Now");
  });
  it("counts minutes, hours and days with floor boundaries", () => {
    expect(notificationTime(ago(MIN), NOW)).toBe("1m");
    expect(notificationTime(ago(59 * MIN + 59_000), NOW)).toBe("59m");
    expect(notificationTime(ago(HOUR), NOW)).toBe("1h");
    expect(notificationTime(ago(23 * HOUR + 59 * MIN), NOW)).toBe("23h");
    expect(notificationTime(ago(DAY), NOW)).toBe("1d");
    expect(notificationTime(ago(7 * DAY - 1), NOW)).toBe("6d");
  });
  it("shows dd/mm from 7 days on, in the user's timezone", () => {
    // 2026-03-03T01:30Z is still 2 March in São Paulo (UTC-3) but 3 March in Lisbon (UTC+0).
    const when = "2026-03-03T01:30:00Z";
    expect(notificationTime(when, NOW, "America/Sao_Paulo")).toBe("02/03");
    expect(notificationTime(when, NOW, "Europe/Lisbon")).toBe("03/03");
    expect(notificationTime(ago(7 * DAY), NOW, "UTC")).toBe("03/03");
    expect(notificationTime("2025-12-25T12:00:00Z", NOW, "America/Sao_Paulo")).toBe("25/12");
  });
  it("falls back to São Paulo for an unknown timezone and to a dash for a bad date", () => {
    expect(notificationTime("2026-03-03T01:30:00Z", NOW, "Mars/Olympus")).toBe("02/03");
    expect(notificationTime("não é data", NOW)).toBe("—");
    expect(notificationTime(null, NOW)).toBe("—");
  });
});

describe("parseListQuery", () => {
  const q = (s: string) => parseListQuery(new URLSearchParams(s));
  it("defaults to page 1, 50 a page, every type", () => {
    expect(q("")).toEqual({ ok: true, query: { page: 1, limit: 50, type: undefined, unread: false, q: undefined } });
    expect(q("type=all&page=&q=%20%20")).toMatchObject({ ok: true, query: { page: 1, type: undefined, q: undefined } });
  });
  it("accepts valid values", () => {
    expect(q("page=3&limit=100&type=limit&unread=1&q=EUR/USD")).toEqual({
      ok: true,
      query: { page: 3, limit: 100, type: "limit", unread: true, q: "EUR/USD" },
    });
  });
  it("refuses bad values with a Portuguese message", () => {
    expect(q("page=0")).toMatchObject({ ok: false, message: "page deve ser um número inteiro maior ou igual a 1." });
    expect(q("page=abc")).toMatchObject({ ok: false, message: "page deve ser um número inteiro maior ou igual a 1." });
    expect(q("limit=101")).toMatchObject({ ok: false, message: "limit deve ser um número inteiro entre 1 e 100." });
    expect(q("limit=2.5")).toMatchObject({ ok: false, message: "limit deve ser um número inteiro entre 1 e 100." });
    expect(q("type=spam")).toMatchObject({ ok: false, message: "type deve ser um de: success, warning, error, limit, trading, info." });
    expect(q("unread=talvez")).toMatchObject({ ok: false, message: "unread deve ser true ou false." });
  });
});

describe("pageQuery", () => {
  it("changes one filter, keeps the others, resets the page and drops the confirm step", () => {
    const current = new URLSearchParams("type=error&unread=1&q=eur&page=3&confirm=clear");
    expect(pageQuery(current, { type: "all" })).toBe("?unread=1&q=eur");
    expect(pageQuery(current, { unread: undefined })).toBe("?type=error&q=eur");
    expect(pageQuery(current, { page: "4" })).toBe("?type=error&unread=1&q=eur&page=4");
    expect(pageQuery(new URLSearchParams(""), { type: "all" })).toBe("");
    expect(pageQuery(new URLSearchParams("type=limit"), { confirm: "clear" })).toBe("?type=limit&confirm=clear");
  });
});

/** Registration-success helpers (PRODUCT.md §2 Registration-success, §4 resend/countdown). */
import { describe, expect, it } from "vitest";
import { inboxUrl, maskEmail, mmss } from "../../../app/components/auth/email-utils";

describe("maskEmail", () => {
  it("keeps the first 3 characters and the domain", () => {
    expect(maskEmail("maria.silva@gmail.com")).toBe("mar***@gmail.com");
  });
  it("never shows more than the local part has", () => {
    expect(maskEmail("jo@uol.com.br")).toBe("jo***@uol.com.br");
  });
});

describe("inboxUrl", () => {
  it.each([
    ["ana@gmail.com", "https://mail.google.com/mail/u/0/#inbox"],
    ["ana@hotmail.com", "https://outlook.live.com/mail/0/inbox"],
    ["ana@outlook.com.br", "https://outlook.live.com/mail/0/inbox"],
    ["ana@live.com", "https://outlook.live.com/mail/0/inbox"],
    ["ana@yahoo.com.br", "https://mail.yahoo.com/d/folders/1"],
  ])("%s opens its webmail", (email, url) => {
    expect(inboxUrl(email)).toBe(url);
  });
  it("falls back to mailto: for other domains", () => {
    expect(inboxUrl("ana@empresa.com.br")).toBe("mailto:ana@empresa.com.br");
  });
});

describe("mmss", () => {
  it("formats the 600 s countdown", () => {
    expect(mmss(600)).toBe("10:00");
    expect(mmss(61)).toBe("01:01");
    expect(mmss(-3)).toBe("00:00");
  });
});

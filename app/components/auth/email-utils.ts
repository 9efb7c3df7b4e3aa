/** Pure helpers of the registration-success screen: e-mail masking and the webmail inbox link. */

/** Masks an e-mail as its first 3 characters + *** + @domain (PRODUCT.md §2), e.g. ana***@gmail.com. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 0) return `${email.slice(0, 3)}***`;
  return `${email.slice(0, Math.min(3, at))}***${email.slice(at)}`;
}

const WEBMAIL: [RegExp, string][] = [
  [/^(gmail|googlemail)\.com$/, "https://mail.google.com/mail/u/0/#inbox"],
  [/^(outlook|hotmail|live|msn)\.(com|com\.br|[a-z]{2})$/, "https://outlook.live.com/mail/0/inbox"],
  [/^(yahoo|ymail)\.(com|com\.br|[a-z]{2})$/, "https://mail.yahoo.com/d/folders/1"],
];

/** The webmail inbox for gmail, outlook/hotmail/live and yahoo domains, else a mailto: link. */
export function inboxUrl(email: string): string {
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  for (const [re, url] of WEBMAIL) if (re.test(domain)) return url;
  return `mailto:${email}`;
}

/** Seconds as mm:ss. */
export function mmss(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

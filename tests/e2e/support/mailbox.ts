/**
 * Local mailbox for end-to-end tests: an `smtp-server` on loopback that keeps every message in memory
 * (parsed with mailparser) plus a tiny HTTP inbox on loopback to read them back:
 *   GET /health → ok;  GET /messages?to=<email> → [{to, from, subject, text, html, date}] newest last;
 *   DELETE /messages → empties the inbox.
 * Started by Playwright as a `webServer` entry (`node --import tsx tests/e2e/support/mailbox.ts`) with
 * MAILBOX_SMTP_PORT / MAILBOX_HTTP_PORT; the app gets SMTP_URL=smtp://127.0.0.1:<smtp port>.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** One received message as the HTTP inbox returns it. */
export interface MailboxMessage {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  date: string;
}

/** A running mailbox: its ports, the received messages and a close function. */
export interface Mailbox {
  smtpPort: number;
  httpPort: number;
  messages: MailboxMessage[];
  close: () => Promise<void>;
}

/** Starts the SMTP server and the HTTP inbox (port 0 = any free port). */
export async function startMailbox(opts: { smtpPort?: number; httpPort?: number } = {}): Promise<Mailbox> {
  const messages: MailboxMessage[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            html: typeof mail.html === "string" ? mail.html : "",
            date: new Date().toISOString(),
          });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once("error", reject);
    smtp.listen(opts.smtpPort ?? 0, "127.0.0.1", () => resolve());
  });
  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    res.setHeader("content-type", "application/json");
    if (url.pathname === "/health") return res.end(JSON.stringify({ ok: true }));
    if (url.pathname === "/messages" && req.method === "DELETE") {
      messages.length = 0;
      return res.end(JSON.stringify({ ok: true }));
    }
    if (url.pathname === "/messages") {
      const to = url.searchParams.get("to")?.toLowerCase();
      return res.end(JSON.stringify(to ? messages.filter((m) => m.to.includes(to)) : messages));
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ error: "not found" }));
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(opts.httpPort ?? 0, "127.0.0.1", () => resolve());
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const httpPort = (http.address() as AddressInfo).port;
  return {
    smtpPort,
    httpPort,
    messages,
    close: async () => {
      await new Promise<void>((r) => smtp.close(() => r()));
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}

/** Ports used by the Playwright run, derived from E2E_PORT so parallel runs on other ports do not collide. */
export function mailboxPorts(appPort = Number(process.env.E2E_PORT ?? 3210)): { smtp: number; http: number } {
  return { smtp: 10_000 + appPort * 2, http: 10_001 + appPort * 2 };
}

if (process.argv[1]?.endsWith("mailbox.ts")) {
  const ports = mailboxPorts();
  const smtpPort = Number(process.env.MAILBOX_SMTP_PORT ?? ports.smtp);
  const httpPort = Number(process.env.MAILBOX_HTTP_PORT ?? ports.http);
  startMailbox({ smtpPort, httpPort })
    .then((m) => {
      console.log(`[mailbox] SMTP 127.0.0.1:${m.smtpPort}, HTTP http://127.0.0.1:${m.httpPort}/messages`);
      const stop = () => void m.close().finally(() => process.exit(0));
      process.on("SIGTERM", stop);
      process.on("SIGINT", stop);
    })
    .catch((err) => {
      console.error("[mailbox]", err);
      process.exit(1);
    });
}

/** Minimal types for mailparser's `simpleParser` (the package ships none; only what the tests read). */
declare module "mailparser" {
  import type { Readable } from "node:stream";
  /** A parsed message. */
  export interface ParsedMail {
    subject?: string;
    text?: string;
    html?: string | false;
    from?: { text: string };
    to?: { text: string } | { text: string }[];
  }
  /** Parses a raw RFC 822 message. */
  export function simpleParser(source: Readable | Buffer | string): Promise<ParsedMail>;
}

/** Types for autocannon 8 (no @types package): the programmatic API bench/web.bench.ts uses. */
declare module "autocannon" {
  import type { EventEmitter } from "node:events";
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Called before each request is sent; returns the request to send. */
    setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests per second across all connections (paced load); unset: each connection as fast as answered. */
    overallRate?: number;
    headers?: Record<string, string>;
    requests?: Request[];
  }
  interface Result {
    errors: number;
    timeouts: number;
    non2xx: number;
    requests: { average: number; total: number };
  }
  /** A running bench: awaitable for its result; emits `response` (client, statusCode, resBytes, responseTimeMs). */
  type Instance = EventEmitter & PromiseLike<Result>;
  function autocannon(opts: Options): Instance;
  export default autocannon;
}

// Worker-thread entry of `npm run research`: registers tsx's loader in this thread, then loads the
// TypeScript worker (execArgv "--import tsx" does not reach worker threads' module loading here).
import { register } from "tsx/esm/api";

register();
await import("./research-worker.ts");

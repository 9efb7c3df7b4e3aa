/**
 * The queue as seen from services: pg-boss wiring lives in jobs/ (jobs/boss.ts, jobs/send.ts,
 * jobs/workers.ts). Kept as a thin re-export for callers that still import it here.
 */
export { queue } from "../../jobs/boss";
export { enqueueEmail, enqueueTick } from "../../jobs/send";

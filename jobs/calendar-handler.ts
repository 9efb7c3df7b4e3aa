/** Thin pg-boss handler of the `calendar-refresh` queue (app/services/platform/queue/queues.ts): the economic calendar (ADR 0018). */
import type { Job } from "pg-boss";
import { refreshCalendar } from "../app/services/trading/calendar.server";

/** Refreshes the stored calendar and the in-memory index; a feed failure is logged by the service, not thrown. */
export async function handleCalendarRefresh(_jobs: Job<unknown>[]): Promise<void> {
  await refreshCalendar();
}

/** Health: database, queue and broker reachability as JSON (200 healthy, 503 degraded). */
import { healthResponse } from "~/services/health.server";

export const loader = () => healthResponse();

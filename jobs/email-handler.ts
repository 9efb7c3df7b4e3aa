/** Thin pg-boss handler for the `email-send` queue: parse the payload, deliver the outbox row. */
import type { Job } from "pg-boss";
import { deliverOutbox } from "../app/services/notify/email.server";
import { emailSendQueue } from "../app/services/platform/queue/queues";

/** Sends each job's outbox message; a thrown SMTP error makes pg-boss retry the job. */
export async function handleEmailSend(jobs: Job<unknown>[]): Promise<void> {
  for (const job of jobs) {
    const { outboxId } = emailSendQueue.payload.parse(job.data);
    await deliverOutbox(outboxId);
  }
}

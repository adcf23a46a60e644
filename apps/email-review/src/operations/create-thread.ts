import { currentActor } from '@repo/http-kit';
import { randomUUID } from 'node:crypto';
import type { InboundEmail } from '../email/raw-email.js';
import type { Thread } from '../threads/thread.js';
import { IdempotencyKeyReused } from '../threads/thread-errors.js';
import { answeredThreadId } from './earlier-exchange.js';
import { log, now, type OperationDeps } from './thread-service.js';
import { runModelJob } from './run-model-job.js';

export interface CreatedThread {
  /** As stored: `drafting` when just created. */
  thread: Thread;
  /** False when the Idempotency-Key (or the email's Message-ID) already created this thread. */
  created: boolean;
  /** The classify-and-draft job run here: settles with the thread paused for review, or rejects. */
  drafted?: Promise<Thread>;
}

/**
 * Stores the thread (`drafting`) with its classify-and-draft job in one transaction, starts the job
 * here, and answers with it, or with the thread the Idempotency-Key (else the Message-ID) created.
 */
export async function createThread(
  deps: OperationDeps,
  received: InboundEmail,
  idempotencyKey?: string,
  /** How the email came: JSON fields, or a raw RFC 5322 message. */
  source: 'json' | 'mime' = 'json',
): Promise<CreatedThread> {
  const previous = await answeredThreadId(deps, received.email);
  const at = now(deps);
  // `drafting` in the index, so not reviewable until the first run's view is saved.
  const fresh: Thread = {
    ...(previous ? { previous_thread_id: previous } : {}),
    thread_id: randomUUID(),
    status: 'drafting',
    inbound: received.inbound,
    email: received.email,
    classification: null,
    draft: null,
    revision: 0,
    created_at: at,
    updated_at: at,
    sent_at: null,
    error: null,
    delivery: null,
  };
  const createdEvent = { type: 'created' as const, at, actor: currentActor(), source };
  const messageKey = received.email.message_id && `message-id:${received.email.message_id}`;
  const job = { thread_id: fresh.thread_id, kind: 'draft' as const };
  const { thread, created, jobId } = await deps.transaction(async (tx) => {
    const stored = await deps.threads.create(tx, {
      thread: fresh,
      idempotencyKey: idempotencyKey ?? messageKey ?? undefined,
      events: [createdEvent],
    });
    return { ...stored, jobId: stored.created ? await deps.modelJobs.send(job, tx) : undefined };
  });
  if (!created || !jobId) {
    // A repeated Idempotency-Key answers with its thread, but only for the same email.
    if (idempotencyKey && thread.inbound !== received.inbound)
      throw new IdempotencyKeyReused(thread.thread_id);
    return { thread, created };
  }
  log(deps).info({ thread_id: thread.thread_id }, 'thread created');
  const drafted = runModelJob(deps, job, jobId, thread).then((view) => view ?? thread);
  // Whoever stops waiting (202) leaves the failure to the thread (`failed`) and the log.
  drafted.catch(() => {});
  return { thread, created: true, drafted };
}

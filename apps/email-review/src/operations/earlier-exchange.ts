import { threadIdOfReply } from '../delivery/delivery.js';
import type { ThreadEmail } from '../email/thread-email.js';
import type { Thread } from '../threads/thread.js';
import type { EmailStateUpdate } from '../workflow/state.js';
import type { OperationDeps } from './thread-service.js';

/**
 * The thread whose sent reply this email answers: the newest of its In-Reply-To / References that
 * is one of our replies' Message-IDs (src/delivery/delivery.ts) and names a thread that still exists.
 */
export async function answeredThreadId(
  deps: Pick<OperationDeps, 'threads'>,
  email: ThreadEmail,
): Promise<string | undefined> {
  for (const messageId of [...email.references].reverse()) {
    const threadId = threadIdOfReply(messageId);
    if (threadId && (await deps.threads.get(threadId))) return threadId;
  }
  return undefined;
}

/** A thread's first run's input: its email, and the earlier exchange when it answers our reply. */
export async function firstRunInput(
  deps: Pick<OperationDeps, 'threads'>,
  thread: Thread,
): Promise<EmailStateUpdate> {
  const answered = thread.previous_thread_id;
  const earlier = answered ? await deps.threads.get(answered) : undefined;
  return {
    inbound: thread.inbound,
    subject: thread.email.subject,
    from: thread.email.from,
    earlier:
      earlier?.status === 'sent' && earlier.draft
        ? { email: earlier.inbound, reply: earlier.draft }
        : null,
  };
}

import { threadIdOfReply } from '../delivery/delivery.js';
import type { ThreadEmail } from '../email/thread-email.js';
import type { Thread } from '../threads/thread.js';
import type { EarlierExchange, EmailStateUpdate } from '../workflow/state.js';
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

/** What the drafter is given of the earlier thread: the customer's email and the reply sent to it. */
async function earlierExchange(
  deps: Pick<OperationDeps, 'threads'>,
  threadId: string | undefined,
): Promise<EarlierExchange | null> {
  const earlier = threadId ? await deps.threads.get(threadId) : undefined;
  if (!earlier || earlier.status !== 'sent' || !earlier.draft) return null;
  return { email: earlier.inbound, reply: earlier.draft };
}

/** A thread's first run's input: its email, and the earlier exchange when it answers one. */
export async function firstRunInput(
  deps: Pick<OperationDeps, 'threads'>,
  thread: Thread,
): Promise<EmailStateUpdate> {
  return {
    inbound: thread.inbound,
    subject: thread.email.subject,
    from: thread.email.from,
    earlier: await earlierExchange(deps, thread.previous_thread_id),
  };
}

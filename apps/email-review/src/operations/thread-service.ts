import type { InboundEmail } from '../email/raw-email.js';
import { approveThread, type Approval } from './approve-thread.js';
import { convergeSentThreads } from './converge-sent-threads.js';
import { createThread } from './create-thread.js';
import { editThread, type ThreadEdit } from './edit-thread.js';
import { getThread } from './get-thread.js';
import { listThreads, type ThreadListRequest } from './list-threads.js';
import type { OperationDeps } from './operation-deps.js';
import { redeliverThread } from './redeliver-thread.js';
import { rejectThread } from './reject-thread.js';
import { retryThread } from './retry-thread.js';

export type ThreadServiceDeps = OperationDeps;

/** The review workflow's operations (one file each) over one set of dependencies: what routes call. */
export function createThreadService(deps: ThreadServiceDeps) {
  return {
    createThread: (received: InboundEmail, idempotencyKey?: string) =>
      createThread(deps, received, idempotencyKey),
    getThread: (threadId: string) => getThread(deps, threadId),
    listThreads: (request: ThreadListRequest) => listThreads(deps, request),
    editThread: (threadId: string, edit: ThreadEdit) => editThread(deps, threadId, edit),
    approveThread: (threadId: string, approval?: Approval) =>
      approveThread(deps, threadId, approval),
    redeliverThread: (threadId: string) => redeliverThread(deps, threadId),
    convergeSentThreads: (options: { staleMs: number }) => convergeSentThreads(deps, options),
    rejectThread: (threadId: string) => rejectThread(deps, threadId),
    retryThread: (threadId: string) => retryThread(deps, threadId),
  };
}

export type ThreadService = ReturnType<typeof createThreadService>;

import type { InboundEmail } from '../email/raw-email.js';
import { approveThread, type Approval } from './approve-thread.js';
import { createThread, type EmailSource } from './create-thread.js';
import { editThread, type ThreadEdit } from './edit-thread.js';
import { getThread } from './get-thread.js';
import { getThreadHistory } from './get-thread-history.js';
import { listThreads, type ThreadListRequest } from './list-threads.js';
import type { OperationDeps } from './operation-deps.js';
import { redeliverThread } from './redeliver-thread.js';
import { rejectThread, type Rejection } from './reject-thread.js';
import { retryThread } from './retry-thread.js';
import type { RevisionCondition } from './decide-thread.js';

export type ThreadServiceDeps = OperationDeps;

/** The review workflow's operations (one file each) over one set of dependencies: what routes call. */
export function createThreadService(deps: ThreadServiceDeps) {
  return {
    createThread: (received: InboundEmail, idempotencyKey?: string, source?: EmailSource) =>
      createThread(deps, received, idempotencyKey, source),
    getThread: (threadId: string) => getThread(deps, threadId),
    getThreadHistory: (threadId: string) => getThreadHistory(deps, threadId),
    listThreads: (request: ThreadListRequest) => listThreads(deps, request),
    editThread: (threadId: string, edit: ThreadEdit, condition?: RevisionCondition) =>
      editThread(deps, threadId, edit, condition),
    approveThread: (threadId: string, approval?: Approval, condition?: RevisionCondition) =>
      approveThread(deps, threadId, approval, condition),
    redeliverThread: (threadId: string, to?: string) => redeliverThread(deps, threadId, to),
    rejectThread: (threadId: string, rejection?: Rejection, condition?: RevisionCondition) =>
      rejectThread(deps, threadId, rejection, condition),
    retryThread: (threadId: string) => retryThread(deps, threadId),
  };
}

export type ThreadService = ReturnType<typeof createThreadService>;

import { currentLogger } from '@repo/http-kit';
import type { Logger } from 'pino';
import type { DeliveryStore } from '../delivery/delivery-store.js';
import type { ReplySender } from '../delivery/delivery.js';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import type { ModelJobs } from '../jobs/model-jobs.js';
import type { Persistence } from '../persistence/persistence.js';
import type { ThreadStore } from '../threads/thread-store.js';
import type { EmailGraph } from '../workflow/graph.js';
import { NEW_THREAD } from '../patches/langgraph-checkpoint-postgres-one-row-checkpoints.js';
import type { GuidelineDerivation } from '../guidelines/guideline-derivation.js';
import type { QualityLedger } from '../quality/quality-ledger.js';
import { createThread } from './create-thread.js';
import { editThread } from './edit-thread.js';
import { getThread, getThreadHistory } from './get-thread.js';
import { listThreads } from './list-threads.js';
import { redeliverThread } from './redeliver-thread.js';
import { rejectThread } from './reject-thread.js';
import { retryThread } from './retry-thread.js';
import { approveThread } from './decide-thread.js';

/** What the operations work with; passed in so that the server and the tests choose. */
export interface OperationDeps {
  graph: EmailGraph;
  threads: ThreadStore;
  deliveries: DeliveryStore;
  /** The model work's queue (create, redraft, retry send; the result's transaction finishes). */
  modelJobs: ModelJobs;
  /** One transaction: a create, a reviewer's decision (see decideThread), a model job's result. */
  transaction: Persistence['transaction'];
  /** The graph over a transaction's saver (a decision's). */
  graphOn: (checkpointer: BaseCheckpointSaver) => EmailGraph;
  outbound: ReplySender;
  logger: Logger;
  clock?: () => Date;
  /** Where approvals and rejections are counted (GET /quality), in their transaction. */
  quality?: QualityLedger;
  /** Queues the derivation of guidelines from a reviewer's edit or instructions. */
  guidelines?: GuidelineDerivation;
}

export function now(deps: Pick<OperationDeps, 'clock'>): string {
  return (deps.clock ? deps.clock() : new Date()).toISOString();
}

/** The current request's logger (it carries the request id), or the service's. */
export function log(deps: Pick<OperationDeps, 'logger'>): Logger {
  return currentLogger(deps.logger);
}

/**
 * How a model job runs the graph: one checkpoint when the run stops (paused for review, or failed:
 * a retry skips the steps that finished). Why not per step: docs/design.md (Checkpoints). A new
 * thread's first run (`fresh`) has no checkpoint to read (see NEW_THREAD).
 */
export const runConfig = (threadId: string, fresh = false) => ({
  configurable: { thread_id: threadId, ...(fresh ? { [NEW_THREAD]: true } : {}) },
  durability: 'exit' as const,
});

/** How operations read or record a thread's state (getState, updateState). */
export const stateConfig = (threadId: string) => ({ configurable: { thread_id: threadId } });

/** The operations (one file each) bound to one set of dependencies: what routes call. */
export function createThreadService(deps: OperationDeps) {
  const bound =
    <A extends unknown[], R>(operation: (deps: OperationDeps, ...args: A) => R) =>
    (...args: A) =>
      operation(deps, ...args);
  return {
    createThread: bound(createThread),
    getThread: bound(getThread),
    getThreadHistory: bound(getThreadHistory),
    listThreads: bound(listThreads),
    editThread: bound(editThread),
    approveThread: bound(approveThread),
    redeliverThread: bound(redeliverThread),
    rejectThread: bound(rejectThread),
    retryThread: bound(retryThread),
  };
}

export type ThreadService = ReturnType<typeof createThreadService>;

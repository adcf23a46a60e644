import { currentLogger } from '@repo/http-kit';
import type { Logger } from 'pino';
import type { DeliveryStore } from '../delivery/delivery-store.js';
import type { ReplySender } from '../email/reply.js';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import type { ModelJobs } from '../jobs/model-jobs.js';
import type { Persistence } from '../persistence/persistence.js';
import type { ThreadHistory } from '../threads/thread-history.js';
import type { ThreadStore } from '../threads/thread-store.js';
import type { EmailGraph } from '../workflow/graph.js';

/** What the operations work with; passed in so that the server and the tests choose. */
export interface OperationDeps {
  graph: EmailGraph;
  threads: ThreadStore;
  history: ThreadHistory;
  deliveries: DeliveryStore;
  /** The model work's queue (create, redraft, retry send; the result's transaction finishes). */
  modelJobs: ModelJobs;
  /** One transaction for a reviewer's decision (see decideThread). */
  decide: Persistence['decide'];
  /** The graph over another saver: a decision's, or a run's (`deferWrites`). */
  graphOn: (checkpointer: BaseCheckpointSaver) => EmailGraph;
  /** A run's checkpoint writes held for its result's statement (PostgreSQL). */
  deferWrites?: Persistence['deferWrites'];
  outbound: ReplySender;
  logger: Logger;
  clock?: () => Date;
}

export function now(deps: Pick<OperationDeps, 'clock'>): string {
  return (deps.clock ? deps.clock() : new Date()).toISOString();
}

/** The current request's logger (it carries the request id), or the service's. */
export function log(deps: Pick<OperationDeps, 'logger'>): Logger {
  return currentLogger(deps.logger);
}

import type { RunnableConfig } from '@langchain/core/runnables';
import { MemorySaver } from '@langchain/langgraph';
import type { Checkpoint, CheckpointMetadata, PendingWrite } from '@langchain/langgraph-checkpoint';
import type { Logger } from 'pino';
import { MemoryDeliveries } from '../delivery/memory-deliveries.js';
import { MemoryThreadStore } from '../threads/memory-thread-store.js';
import type { RetryPolicy } from '../delivery/retry-policy.js';
import { inProcessModelJobs } from '../jobs/model-jobs.js';
import type { Persistence } from './persistence.js';
import { ChangeFeed } from '../changes/change-feed.js';
import { MemoryOutbox } from '@repo/webhooks';
import { outboxDeps, threadWebhooks, type WebhookOptions } from '../webhooks/thread-webhooks.js';

/**
 * Memory mode's saver for a transaction: it reads the service's saver's storage, and its writes
 * wait, in order, for `flush` (the transaction's commit) and are dropped by `discard` (its
 * rollback). `updateState` reads only before it writes, so nothing reads a write that waits.
 */
class DeferredSaver extends MemorySaver {
  private pending: (() => Promise<unknown>)[] = [];

  constructor(saver: MemorySaver) {
    super(saver.serde);
    this.storage = saver.storage;
    this.writes = saver.writes;
  }

  override async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata) {
    this.pending.push(() => super.put(config, checkpoint, metadata));
    const { thread_id, checkpoint_ns = '' } = config.configurable ?? {};
    return { configurable: { thread_id, checkpoint_ns, checkpoint_id: checkpoint.id } };
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string) {
    this.pending.push(() => super.putWrites(config, writes, taskId));
  }

  async flush() {
    for (const write of this.pending.splice(0)) await write();
  }

  discard() {
    this.pending = [];
  }
}

/**
 * Everything in process; `retry`: how deferred deliveries are retried (the default policy unless
 * set); `webhooks`: the endpoints, their deliveries kept and sent in process too.
 */
export function createMemoryPersistence(
  options: { retry?: RetryPolicy; webhooks?: WebhookOptions; logger?: Logger } = {},
): Persistence {
  const changes = new ChangeFeed();
  const outbox = new MemoryOutbox(outboxDeps(options.webhooks, options.logger));
  const webhooks = threadWebhooks(outbox, options.webhooks);
  const threads = new MemoryThreadStore(changes, webhooks);
  const deliveries = new MemoryDeliveries(threads, options.retry);
  const checkpointer = new MemorySaver();
  // One for every transaction (they run one at a time), so the graph over it is compiled once.
  const deferred = new DeferredSaver(checkpointer);
  let transactions: Promise<unknown> = Promise.resolve();
  return {
    kind: 'memory',
    checkpointer,
    // One transaction at a time: each reads and writes the maps without another one in between;
    // the graph's writes are made once the work returns, or dropped with its throw.
    transaction: (work) => {
      const done = transactions.then(async () => {
        try {
          const result = await work({ checkpointer: deferred });
          await deferred.flush();
          return result;
        } finally {
          deferred.discard();
        }
      });
      transactions = done.catch(() => undefined);
      return done;
    },
    threads,
    deliveries,
    changes,
    outbox,
    modelJobs: inProcessModelJobs(),
    close: async () => {
      await deliveries.stop();
      await outbox.close();
    },
  };
}

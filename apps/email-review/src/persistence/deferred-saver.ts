import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type PendingWrite,
} from '@langchain/langgraph-checkpoint';

type Write =
  | { put: Parameters<BaseCheckpointSaver['put']> }
  | { putWrites: Parameters<BaseCheckpointSaver['putWrites']> };

/**
 * Memory mode's saver for a transaction: reads go to `saver`, writes wait, in order, for `flush`
 * (the transaction's commit) and are dropped by `discard` (its rollback). `updateState` reads only
 * before it writes, so nothing reads a write that waits.
 */
export class DeferredSaver extends BaseCheckpointSaver {
  private writes: Write[] = [];

  constructor(readonly saver: BaseCheckpointSaver) {
    super(saver.serde);
  }

  getTuple(config: RunnableConfig) {
    return this.saver.getTuple(config);
  }

  list(config: RunnableConfig, options?: CheckpointListOptions) {
    return this.saver.list(config, options);
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    this.writes.push({ put: [config, checkpoint, metadata, newVersions] });
    const { thread_id, checkpoint_ns = '' } = config.configurable ?? {};
    return { configurable: { thread_id, checkpoint_ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string) {
    this.writes.push({ putWrites: [config, writes, taskId] });
  }

  deleteThread(threadId: string) {
    return this.saver.deleteThread(threadId);
  }

  override getNextVersion(current: number | undefined) {
    return this.saver.getNextVersion(current);
  }

  async flush() {
    for (const write of this.writes.splice(0)) {
      if ('put' in write) await this.saver.put(...write.put);
      else await this.saver.putWrites(...write.putWrites);
    }
  }

  discard() {
    this.writes = [];
  }
}

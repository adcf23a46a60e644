import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type PendingWrite,
} from '@langchain/langgraph-checkpoint';

/** A write a decision's graph asked for, not yet made. */
export type DeferredWrite =
  | {
      kind: 'put';
      config: RunnableConfig;
      checkpoint: Checkpoint;
      metadata: CheckpointMetadata;
      newVersions: ChannelVersions;
    }
  | { kind: 'putWrites'; config: RunnableConfig; writes: PendingWrite[]; taskId: string };

/**
 * A decision's saver (see decideThread): reads go to the service's saver, writes wait, in order,
 * to be committed with the decision's compare-and-set, and are dropped when it finds the thread
 * moved on. PostgreSQL: they ride in the compare-and-set's own statement (OneRowPostgresSaver
 * `statementPart`); memory: `flush` makes them after it. `updateState` only reads before it
 * writes, so nothing reads a write that waits.
 */
export class DeferredSaver<
  S extends BaseCheckpointSaver = BaseCheckpointSaver,
> extends BaseCheckpointSaver {
  readonly writes: DeferredWrite[] = [];

  constructor(readonly saver: S) {
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
    this.writes.push({ kind: 'put', config, checkpoint, metadata, newVersions });
    const { thread_id, checkpoint_ns = '' } = config.configurable ?? {};
    return { configurable: { thread_id, checkpoint_ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string) {
    this.writes.push({ kind: 'putWrites', config, writes, taskId });
  }

  deleteThread(threadId: string) {
    return this.saver.deleteThread(threadId);
  }

  override getNextVersion(current: number | undefined) {
    return this.saver.getNextVersion(current);
  }

  /** Makes the writes through the service's saver (memory mode, after the compare-and-set). */
  async flush() {
    for (const write of this.writes.splice(0)) {
      if (write.kind === 'put') {
        await this.saver.put(write.config, write.checkpoint, write.metadata, write.newVersions);
      } else {
        await this.saver.putWrites(write.config, write.writes, write.taskId);
      }
    }
  }
}

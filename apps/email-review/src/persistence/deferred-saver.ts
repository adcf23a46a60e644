import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointTuple,
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
 * The saver of a decision (see decideThread) or of a model job's run (run-model-job.ts): reads
 * go to the service's saver, writes wait, in order, to be committed with the compare-and-set that
 * writes the thread's view, and are dropped when it finds the thread moved on. PostgreSQL: they
 * ride in that statement (OneRowPostgresSaver `statementPart`); memory: `flush` makes them after
 * it. `updateState` and a run (durability 'exit') read only before they write, so nothing reads a
 * write that waits.
 */
export class DeferredSaver<
  S extends BaseCheckpointSaver = BaseCheckpointSaver,
> extends BaseCheckpointSaver {
  readonly writes: DeferredWrite[] = [];

  private first: { tuple: CheckpointTuple | undefined } | undefined;

  constructor(
    readonly saver: S,
    /**
     * What the first read of the latest checkpoint answers, already known: none for a thread
     * nothing can have checkpointed yet (its create's own run), or the one read with the view.
     */
    options: { first?: { tuple: CheckpointTuple | undefined } } = {},
  ) {
    super(saver.serde);
    this.first = options.first;
  }

  async getTuple(config: RunnableConfig) {
    const first = this.first;
    this.first = undefined;
    if (first && !config.configurable?.checkpoint_id) return first.tuple;
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

  /** Makes the writes, a statement each, through `via` (by default the saver it reads from). */
  async flush(via: BaseCheckpointSaver = this.saver) {
    for (const write of this.writes.splice(0)) {
      if (write.kind === 'put') {
        await via.put(write.config, write.checkpoint, write.metadata, write.newVersions);
      } else {
        await via.putWrites(write.config, write.writes, write.taskId);
      }
    }
  }
}

/**
 * Framework patch `langgraph-checkpoint-postgres-one-statement-writes` —
 * @langchain/langgraph-checkpoint-postgres@1.0.5 (pinned exactly in package.json for it).
 *
 * Touches: `PostgresSaver#put` and `#putWrites` (overridden), through the saver's protected
 * `_dumpBlobs`, `_dumpMetadata`, `_dumpCheckpoint` and `_dumpWrites` helpers and the positions of
 * the columns in the rows they return (blob row [2..5], write row [4..7]).
 * Why: the stock `put` checks out a connection and sends BEGIN, one INSERT per changed channel, the
 * checkpoint row and COMMIT: about ten round trips for a new thread. Here the blobs and the checkpoint
 * row go in one statement (atomic on its own) through `unnest` of parameter arrays, and `putWrites`
 * in one statement too. Tables, rows and serialisation are the stock ones, except that a channel
 * with no value at its new version gets no `empty` blob row (the stock reads skip those rows), so
 * reads, `setup()` and the stock saver itself all work on the same data. It is the write path's
 * main lever.
 * Guarded by: apps/email-review/test/framework-patches.test.ts (the same rows as the stock saver,
 * read back by it) and apps/email-review/test/durability.test.ts (the stock PostgresSaver reads the
 * service's threads).
 * Applied in src/db/postgres-persistence.ts; `oneStatementCheckpointWrites: false` uses the stock saver.
 * Because every write is one statement, the saver also runs on one client inside its caller's
 * transaction (a decision's: src/db/postgres-persistence.ts `decide`): the stock reads
 * (`getTuple`, `list`) only call `query`, and nothing here checks a connection out.
 */
import type { RunnableConfig } from '@langchain/core/runnables';
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointMetadata,
  PendingWrite,
} from '@langchain/langgraph-checkpoint';
import { WRITES_IDX_MAP } from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type pg from 'pg';

/** Schema-qualified names of the saver's three tables. */
export interface CheckpointTableNames {
  checkpoints: string;
  blobs: string;
  writes: string;
}

/** LangGraph's PostgreSQL checkpointer with its two write paths reduced to one statement each. */
export class OneStatementPostgresSaver extends PostgresSaver {
  private readonly putSql: string;
  private readonly putWritesSql: Record<'upsert' | 'insert', string>;

  constructor(
    /** The pool, or one client whose transaction every read and write then joins. */
    private readonly db: pg.Pool | pg.PoolClient,
    schema: string,
    { blobs, checkpoints, writes }: CheckpointTableNames,
  ) {
    // The stock saver keeps it as its `pool` but, for what is not overridden here, only queries it.
    super(db as pg.Pool, undefined, { schema });
    this.putSql = `
      WITH blobs AS (
        INSERT INTO ${blobs} (thread_id, checkpoint_ns, channel, version, type, blob)
        SELECT $1, $2, b.channel, b.version, b.type, b.blob
        FROM unnest($7::text[], $8::text[], $9::text[], $10::bytea[]) AS b(channel, version, type, blob)
        ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING
      )
      INSERT INTO ${checkpoints} (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
      VALUES ($1, $2, $3, $4, $5, $6)
      ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
      DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata`;
    const insertWrites = `
      INSERT INTO ${writes} (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob)
      SELECT $1, $2, $3, $4, w.idx, w.channel, w.type, w.blob
      FROM unnest($5::int[], $6::text[], $7::text[], $8::bytea[]) AS w(idx, channel, type, blob)
      ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)`;
    this.putWritesSql = {
      // Same conflict rules as the stock saver: special channels overwrite, others keep the first write.
      upsert: `${insertWrites} DO UPDATE SET channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob`,
      insert: `${insertWrites} DO NOTHING`,
    };
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    if (config.configurable === undefined)
      throw new Error('Missing "configurable" field in "config" param');
    const { thread_id, checkpoint_ns = '', checkpoint_id } = config.configurable;
    const [dumped, serializedMetadata] = await Promise.all([
      this._dumpBlobs(thread_id, checkpoint_ns, checkpoint.channel_values, newVersions),
      this._dumpMetadata(metadata),
    ]);
    // A channel that has no value at its new version (a branch consumed, `__start__`) gets no row:
    // the stock reads join blobs on the checkpoint's versions and skip `empty` ones, so a missing
    // row reads the same (4 of a lifecycle's 14 blob rows).
    const blobs = dumped.filter((blob) => blob[4] !== 'empty');
    await this.db.query(this.putSql, [
      thread_id,
      checkpoint_ns,
      checkpoint.id,
      checkpoint_id,
      this._dumpCheckpoint(checkpoint),
      serializedMetadata,
      blobs.map((blob) => blob[2]),
      blobs.map((blob) => blob[3]),
      blobs.map((blob) => blob[4]),
      blobs.map((blob) => blob[5] ?? null),
    ]);
    return { configurable: { thread_id, checkpoint_ns, checkpoint_id: checkpoint.id } };
  }

  override async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
  ): Promise<void> {
    if (writes.length === 0) return;
    const { thread_id, checkpoint_ns, checkpoint_id } = config.configurable ?? {};
    const rows = await this._dumpWrites(thread_id, checkpoint_ns, checkpoint_id, taskId, writes);
    const sql = writes.every(([channel]) => channel in WRITES_IDX_MAP)
      ? this.putWritesSql.upsert
      : this.putWritesSql.insert;
    await this.db.query(sql, [
      thread_id,
      checkpoint_ns,
      checkpoint_id,
      taskId,
      rows.map((row) => row[4]),
      rows.map((row) => row[5]),
      rows.map((row) => row[6]),
      rows.map((row) => row[7]),
    ]);
  }
}

/**
 * @langchain/langgraph-checkpoint-postgres@1.0.5 · `PostgresSaver#put`/`#putWrites` (overridden),
 * `_loadCheckpoint` (extended), `#getTuple` (skipped for a NEW_THREAD run) and the private
 * `SQL_STATEMENTS.SELECT_SQL`: a checkpoint is one row, its channel values inside the `checkpoint`
 * jsonb as `[type, text]`, and each put is one statement.
 * Why: the stock put writes one blob row per channel in its own transaction; this one checks out no
 * connection, so it also runs on a caller's transaction client. Rows of the stock saver still read
 * (from their blobs), but the stock saver cannot read these: switching the patch off needs an empty
 * database. Gain and guarding tests: the register (packages/http-kit/src/framework-patches.ts).
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

/**
 * A run's `configurable` flag: its thread was created by this request and its job is held by this
 * instance (the job starts after its lease), so there is no checkpoint to read: getTuple answers
 * none without a statement.
 */
export const NEW_THREAD = 'email_review_new_thread';

/** A channel's value inside the checkpoint row: the serde's type and its text (base64 for bytes). */
type InlineValue = [type: string, text: string];

/** The stock read's blob join, which rows carrying their own values skip. */
const BLOB_JOIN = "from jsonb_each_text(checkpoint -> 'channel_versions')";

/** LangGraph's PostgreSQL checkpointer with a checkpoint in one row and each write one statement. */
export class OneRowPostgresSaver extends PostgresSaver {
  private readonly putSql: string;
  private readonly putWritesSql: Record<'upsert' | 'insert', string>;

  constructor(
    /** The pool, or one client whose transaction every read and write then joins. */
    private readonly db: pg.Pool | pg.PoolClient,
    schema: string,
  ) {
    // The stock saver keeps it as its `pool` but, for what is not overridden here, only queries it.
    super(db as pg.Pool, undefined, { schema });
    const statements = (this as unknown as { SQL_STATEMENTS: { SELECT_SQL: string } })
      .SQL_STATEMENTS;
    if (!statements.SELECT_SQL.includes(BLOB_JOIN))
      throw new Error('langgraph-checkpoint-postgres: SELECT_SQL changed; re-check this patch');
    statements.SELECT_SQL = statements.SELECT_SQL.replace(
      BLOB_JOIN,
      "from jsonb_each_text(CASE WHEN checkpoint ? 'channel_values' THEN NULL ELSE checkpoint -> 'channel_versions' END)",
    );
    this.putSql = putSql(`"${schema}".checkpoints`);
    this.putWritesSql = {
      upsert: putWritesSql(`"${schema}".checkpoint_writes`, true),
      insert: putWritesSql(`"${schema}".checkpoint_writes`, false),
    };
  }

  override async getTuple(config: RunnableConfig) {
    if (config.configurable?.[NEW_THREAD] === true) return undefined;
    return super.getTuple(config);
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    _newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const params = await this.putParams(config, checkpoint, metadata);
    await this.db.query(this.putSql, params);
    return {
      configurable: {
        thread_id: params[0],
        checkpoint_ns: params[1],
        checkpoint_id: checkpoint.id,
      },
    };
  }

  /** The checkpoint's row, its channel values inside, as putSql's parameters. */
  private async putParams(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
  ): Promise<unknown[]> {
    if (config.configurable === undefined)
      throw new Error('Missing "configurable" field in "config" param');
    const { thread_id, checkpoint_ns = '', checkpoint_id } = config.configurable;
    const values: Record<string, InlineValue> = {};
    for (const [channel, value] of Object.entries(checkpoint.channel_values)) {
      const [type, dumped] = await this.serde.dumpsTyped(value);
      values[channel] = [
        type,
        type === 'json' ? new TextDecoder().decode(dumped) : Buffer.from(dumped).toString('base64'),
      ];
    }
    return [
      thread_id,
      checkpoint_ns,
      checkpoint.id,
      checkpoint_id ?? null,
      { ...this._dumpCheckpoint(checkpoint), channel_values: values },
      await this._dumpMetadata(metadata),
    ];
  }

  /** The stock load, plus the values a row of this patch carries (none in a stock row). */
  protected override async _loadCheckpoint(
    checkpoint: Omit<Checkpoint, 'pending_sends' | 'channel_values'>,
    blobs: [Uint8Array, Uint8Array, Uint8Array][],
  ): Promise<Checkpoint> {
    const { channel_values: inline, ...rest } = checkpoint as typeof checkpoint & {
      channel_values?: Record<string, InlineValue>;
    };
    const loaded = await super._loadCheckpoint(rest, blobs);
    for (const [channel, [type, text]] of Object.entries(inline ?? {})) {
      loaded.channel_values[channel] = await this.serde.loadsTyped(
        type,
        type === 'json' ? text : new Uint8Array(Buffer.from(text, 'base64')),
      );
    }
    return loaded;
  }

  override async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
  ): Promise<void> {
    if (writes.length === 0) return;
    const { upsert, params } = await this.putWritesParams(config, writes, taskId);
    await this.db.query(this.putWritesSql[upsert ? 'upsert' : 'insert'], params);
  }

  /** The writes' rows as putWritesSql's parameters, and which conflict rule they take. */
  private async putWritesParams(config: RunnableConfig, writes: PendingWrite[], taskId: string) {
    const { thread_id, checkpoint_ns, checkpoint_id } = config.configurable ?? {};
    const rows = await this._dumpWrites(thread_id, checkpoint_ns, checkpoint_id, taskId, writes);
    return {
      // Same conflict rules as the stock saver: special channels overwrite, others keep the first write.
      upsert: writes.every(([channel]) => channel in WRITES_IDX_MAP),
      params: [
        thread_id,
        checkpoint_ns,
        checkpoint_id,
        taskId,
        rows.map((row) => row[4]),
        rows.map((row) => row[5]),
        rows.map((row) => row[6]),
        rows.map((row) => row[7]),
      ],
    };
  }
}

/** A checkpoint's row. */
function putSql(checkpoints: string) {
  return `INSERT INTO ${checkpoints} (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
    VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
    DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata`;
}

/** A task's pending writes, with the stock conflict rules. */
function putWritesSql(writes: string, upsert: boolean) {
  return `INSERT INTO ${writes} (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob)
    SELECT $1::text, $2::text, $3::text, $4::text, w.idx, w.channel, w.type, w.blob
    FROM unnest($5::int[], $6::text[], $7::text[], $8::bytea[]) AS w(idx, channel, type, blob)
    ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
    ${upsert ? 'DO UPDATE SET channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob' : 'DO NOTHING'}`;
}

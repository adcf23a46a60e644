/**
 * Framework patch `langgraph-checkpoint-postgres-one-row-checkpoints` —
 * @langchain/langgraph-checkpoint-postgres@1.0.5 (pinned exactly in package.json for it).
 *
 * Touches: `PostgresSaver#put` and `#putWrites` (overridden), the protected `_loadCheckpoint`
 * (extended), `_loadMetadata`, `_loadWrites`, `_dumpMetadata`, `_dumpCheckpoint` and `_dumpWrites`
 * helpers and the positions of the columns in the write rows they return ([4..7]), the private
 * `SQL_STATEMENTS.SELECT_SQL` (its blob join skipped for rows that carry their values; run as a
 * lateral join by `latestWithView`, which builds the tuple as the stock `getTuple` does) and the
 * serde's two types (`json`, `bytes`).
 * Why: the stock `put` checks out a connection and sends BEGIN, one INSERT per changed channel, the
 * checkpoint row and COMMIT, and every read joins the blob table once per channel. Here a checkpoint
 * is one row: its channel values ride in the `checkpoint` jsonb under `channel_values` (each as
 * `[type, text]`: the serde's JSON text, or base64 for bytes), written by one statement, and
 * `putWrites` is one statement too. A thread of about ten channels writes 2 checkpoint rows per
 * lifecycle instead of 2 + 10 blob rows, and its reads probe no blobs. It is the saver SqliteSaver
 * and MemorySaver already are (each checkpoint holds the whole state), on the stock tables.
 * Reads: `getTuple` and `list` stay the stock ones. A row written by the stock saver (a thread
 * paused before this patch was deployed) has no `channel_values` and reads from its blobs as ever;
 * its next checkpoint is written whole. The stock saver cannot read this patch's rows back (it
 * would see no values): switching the patch off needs an empty database.
 * Guarded by: apps/email-review/test/framework-patches.test.ts (a step written by the patch reads
 * back the same as the stock saver's; a thread written by the stock saver is read and resumed).
 * Applied in src/db/postgres-persistence.ts; `oneRowCheckpoints: false` uses the stock saver.
 * Because every write is one statement, a decision's writes (deferred by DeferredSaver) also go as
 * CTEs into the decision's compare-and-set statement (`statementPart`), and the saver runs on one
 * client inside a caller's transaction: the stock reads only call `query`, and nothing here checks
 * a connection out.
 */
import type { RunnableConfig } from '@langchain/core/runnables';
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointMetadata,
  CheckpointTuple,
  PendingWrite,
} from '@langchain/langgraph-checkpoint';
import { WRITES_IDX_MAP } from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type pg from 'pg';
import type { DeferredWrite } from '../persistence/deferred-saver.js';
import type { StatementPart } from '../persistence/statement-part.js';

/** Schema-qualified names of the saver's three tables. */
export interface CheckpointTableNames {
  checkpoints: string;
  blobs: string;
  writes: string;
}

/** A channel's value inside the checkpoint row: the serde's type and its text (base64 for bytes). */
type InlineValue = [type: string, text: string];

/** The stock read's blob join, which rows carrying their own values skip. */
const BLOB_JOIN = "from jsonb_each_text(checkpoint -> 'channel_versions')";

/** LangGraph's PostgreSQL checkpointer with a checkpoint in one row and each write one statement. */
export class OneRowPostgresSaver extends PostgresSaver {
  private readonly putSql: string;
  private readonly putWritesSql: Record<'upsert' | 'insert', string>;
  private readonly tables: Pick<CheckpointTableNames, 'checkpoints' | 'writes'>;
  /** The stock read statement (its blob join skipped for one-row checkpoints), before its WHERE. */
  private readonly selectSql: string;

  constructor(
    /** The pool, or one client whose transaction every read and write then joins. */
    private readonly db: pg.Pool | pg.PoolClient,
    schema: string,
    { checkpoints, writes }: CheckpointTableNames,
  ) {
    // The stock saver keeps it as its `pool` but, for what is not overridden here, only queries it.
    super(db as pg.Pool, undefined, { schema });
    const statements = (this as unknown as { SQL_STATEMENTS: { SELECT_SQL: string } })
      .SQL_STATEMENTS;
    if (!statements.SELECT_SQL.includes(BLOB_JOIN))
      throw new Error('langgraph-checkpoint-postgres: SELECT_SQL changed; re-check this patch');
    this.selectSql = statements.SELECT_SQL = statements.SELECT_SQL.replace(
      BLOB_JOIN,
      "from jsonb_each_text(CASE WHEN checkpoint ? 'channel_values' THEN NULL ELSE checkpoint -> 'channel_versions' END)",
    );
    this.putSql = putSql(checkpoints, (i) => `$${i}`);
    this.putWritesSql = {
      upsert: putWritesSql(writes, true, (i) => `$${i}`),
      insert: putWritesSql(writes, false, (i) => `$${i}`),
    };
    this.tables = { checkpoints, writes };
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

  /**
   * A row of `table` (its `view`, by `thread_id`) and the thread's latest checkpoint, in one query
   * (the stock read statement as a lateral join), for a decision that reads both. A checkpoint of
   * a format older than v4 is read again by the stock `getTuple`, which migrates it.
   */
  async latestWithView<V>(
    threadId: string,
    table: string,
  ): Promise<{ view: V | undefined; tuple: CheckpointTuple | undefined }> {
    const { rows } = await this.db.query(
      `SELECT t.view, cp.* FROM ${table} AS t LEFT JOIN LATERAL (${this.selectSql}
         WHERE cp.thread_id = t.thread_id AND cp.checkpoint_ns = ''
         ORDER BY cp.checkpoint_id DESC LIMIT 1) AS cp ON true
       WHERE t.thread_id = $1`,
      [threadId],
    );
    const row = rows[0];
    if (!row) return { view: undefined, tuple: undefined };
    if (!row.checkpoint_id) return { view: row.view, tuple: undefined };
    if (row.checkpoint.v < 4 && row.parent_checkpoint_id != null)
      return {
        view: row.view,
        tuple: await this.getTuple({ configurable: { thread_id: threadId } }),
      };
    const configurable = { thread_id: threadId, checkpoint_ns: '' };
    return {
      view: row.view,
      tuple: {
        config: { configurable: { ...configurable, checkpoint_id: row.checkpoint_id } },
        checkpoint: await this._loadCheckpoint(row.checkpoint, row.channel_values),
        metadata: await this._loadMetadata(row.metadata),
        ...(row.parent_checkpoint_id
          ? {
              parentConfig: {
                configurable: { ...configurable, checkpoint_id: row.parent_checkpoint_id },
              },
            }
          : {}),
        pendingWrites: await this._loadWrites(row.pending_writes),
      },
    };
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

  /**
   * Writes a decision deferred (DeferredSaver), as CTEs of the decision's statement that write
   * only when `guard` (its compare-and-set) has a row, parameters from `$first` on.
   */
  async statementPart(deferred: readonly DeferredWrite[]): Promise<StatementPart> {
    const parts: Array<{ size: number; sql: (guard: string, p: Param) => string }> = [];
    const params: unknown[] = [];
    for (const write of deferred) {
      if (write.kind === 'put') {
        params.push(...(await this.putParams(write.config, write.checkpoint, write.metadata)));
        parts.push({ size: 6, sql: (guard, p) => putSql(this.tables.checkpoints, p, guard) });
      } else if (write.writes.length > 0) {
        const { upsert, params: own } = await this.putWritesParams(
          write.config,
          write.writes,
          write.taskId,
        );
        params.push(...own);
        parts.push({
          size: 8,
          sql: (guard, p) => putWritesSql(this.tables.writes, upsert, p, guard),
        });
      }
    }
    return {
      params,
      ctes: (guard, first) => {
        let at = first - 1;
        return parts
          .map((part, i) => {
            const base = at;
            at += part.size;
            return `checkpoint_write_${i} AS (${part.sql(guard, (n) => `$${base + n}`)})`;
          })
          .join(', ');
      },
    };
  }
}

/** The n-th parameter of a statement's part, as its placeholder. */
type Param = (n: number) => string;

/** A checkpoint's row; with `guard`, only when that CTE has a row. Parameters p(1..6). */
function putSql(checkpoints: string, p: Param, guard?: string) {
  return `INSERT INTO ${checkpoints} (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
    SELECT ${p(1)}::text, ${p(2)}::text, ${p(3)}::text, ${p(4)}::text, ${p(5)}::jsonb, ${p(6)}::jsonb
    ${guard ? `WHERE EXISTS (SELECT 1 FROM ${guard})` : ''}
    ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
    DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata`;
}

/** A task's pending writes (the stock conflict rules); with `guard`, only when it has a row. p(1..8). */
function putWritesSql(writes: string, upsert: boolean, p: Param, guard?: string) {
  return `INSERT INTO ${writes} (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob)
    SELECT ${p(1)}::text, ${p(2)}::text, ${p(3)}::text, ${p(4)}::text, w.idx, w.channel, w.type, w.blob
    FROM unnest(${p(5)}::int[], ${p(6)}::text[], ${p(7)}::text[], ${p(8)}::bytea[]) AS w(idx, channel, type, blob)
    ${guard ? `WHERE EXISTS (SELECT 1 FROM ${guard})` : ''}
    ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
    ${upsert ? 'DO UPDATE SET channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob' : 'DO NOTHING'}`;
}

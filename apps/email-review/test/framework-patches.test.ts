import type { Checkpoint } from '@langchain/langgraph-checkpoint';
import { emptyCheckpoint } from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { withTransaction } from '@repo/pg-kit';
import pg from 'pg';
import { checkpointerIn } from '../src/patches/langgraph-checkpoint-postgres-in-transaction.js';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
} from './support/database.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;

const config = { configurable: { thread_id: 'in-transaction', checkpoint_ns: '' } };

/** The calls a graph's step makes: a checkpoint with two channels, then its pending writes. */
async function writeOneStep(saver: PostgresSaver) {
  const checkpoint: Checkpoint = {
    ...emptyCheckpoint(),
    id: '1f0c0000-0000-6000-8000-000000000001',
    channel_values: { inbound: 'Hello', reply: 'Dear Ann' },
    channel_versions: { inbound: 1, reply: 1 },
  };
  const written = await saver.put(
    config,
    checkpoint,
    { source: 'loop', step: 1, parents: {} },
    {
      inbound: 1,
      reply: 1,
    },
  );
  await saver.putWrites(written, [['revision', 1]], 'task-a');
}

/** Patch langgraph-checkpoint-postgres-in-transaction: the stock saver on a transaction's client. */
describePg('framework patches', () => {
  const schema = freshSchema('patches');
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 3 });
  const stock = new PostgresSaver(pool, undefined, { schema });
  const rows = async () =>
    (
      await pool.query<{ n: string }>(
        `SELECT (SELECT count(*) FROM "${schema}".checkpoints)
           + (SELECT count(*) FROM "${schema}".checkpoint_blobs)
           + (SELECT count(*) FROM "${schema}".checkpoint_writes) AS n`,
      )
    ).rows[0]!.n;

  beforeAll(async () => {
    await stock.setup();
  });
  afterEach(async () => {
    await stock.deleteThread('in-transaction');
  });
  afterAll(async () => {
    await pool.end();
    await dropSchema(schema);
  });

  test('when the saver writes a step inside a transaction that rolls back, then none of it is kept', async () => {
    await expect(
      withTransaction(pool, async (client) => {
        await writeOneStep(checkpointerIn(client, schema));
        throw new Error('the view write failed');
      }),
    ).rejects.toThrow('the view write failed');

    expect(await rows()).toBe('0');
    expect(await stock.getTuple(config)).toBeUndefined();
  });

  test('when the transaction commits, then the stock saver reads the step back, as the transaction did before its commit', async () => {
    const inside = await withTransaction(pool, async (client) => {
      const saver = checkpointerIn(client, schema);
      await writeOneStep(saver);
      // Not visible outside the transaction before its commit.
      expect(await stock.getTuple(config)).toBeUndefined();
      return saver.getTuple(config);
    });

    const outside = await stock.getTuple(config);
    expect(outside?.checkpoint.channel_values).toEqual({ inbound: 'Hello', reply: 'Dear Ann' });
    expect(outside?.pendingWrites).toEqual([['task-a', 'revision', 1]]);
    expect(outside).toEqual(inside);
  });
});

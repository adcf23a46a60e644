import type { Checkpoint, PendingWrite } from '@langchain/langgraph-checkpoint';
import { emptyCheckpoint } from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import pg from 'pg';
import request from 'supertest';
import { checkpointTables } from '../src/db/tables.js';
import { OneStatementPostgresSaver } from '../src/patches/langgraph-checkpoint-postgres-one-statement-writes.js';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
} from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance } from './support/harness.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;

/** Every row of a saver's three tables, in a stable order. */
async function checkpointRows(pool: pg.Pool, schema: string) {
  const tables = checkpointTables(schema);
  const rows = async (table: string, order: string) =>
    (await pool.query(`SELECT * FROM ${table} ORDER BY ${order}`)).rows;
  return {
    checkpoints: await rows(tables.checkpoints, 'checkpoint_id'),
    blobs: await rows(tables.blobs, 'channel, version'),
    writes: await rows(tables.writes, 'task_id, idx'),
  };
}

/** The same calls a graph run makes: a checkpoint with two channels, then two rounds of writes. */
async function writeOneStep(saver: PostgresSaver) {
  const checkpoint: Checkpoint = {
    ...emptyCheckpoint(),
    id: '1f0c0000-0000-6000-8000-000000000001',
    ts: '2025-01-01T00:00:00.000Z',
    // `branch:to:draft` has a version and no value: consumed, as a graph's branches are.
    channel_values: { inbound: 'Hello', reply: 'Dear Ann' },
    channel_versions: { inbound: 1, reply: 1, 'branch:to:draft': 2 },
  };
  const config = await saver.put(
    { configurable: { thread_id: 'patched', checkpoint_ns: '' } },
    checkpoint,
    { source: 'loop', step: 1, parents: {} },
    { inbound: 1, reply: 1, 'branch:to:draft': 2 },
  );
  const first: PendingWrite[] = [
    ['reply', 'first'],
    ['revision', 1],
  ];
  const special: PendingWrite[] = [['__error__', { message: 'first' }]];
  await saver.putWrites(config, first, 'task-a');
  await saver.putWrites(config, special, 'task-b');
  // Again, with other values: ordinary channels keep their first write, special ones are replaced.
  await saver.putWrites(
    config,
    [
      ['reply', 'second'],
      ['revision', 2],
    ],
    'task-a',
  );
  await saver.putWrites(config, [['__error__', { message: 'second' }]], 'task-b');
  return config;
}

describePg('framework patches', () => {
  const patchedSchema = freshSchema('patched');
  const stockSchema = freshSchema('stock');
  let pool: pg.Pool;

  beforeAll(() => {
    pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await dropSchema(patchedSchema);
    await dropSchema(stockSchema);
  });

  test('when the one-statement saver writes a step, then its rows are the stock PostgresSaver’s but for the empty channels’ markers, and the stock saver reads them back the same', async () => {
    const patched = new OneStatementPostgresSaver(
      pool,
      patchedSchema,
      checkpointTables(patchedSchema),
    );
    const stock = new PostgresSaver(pool, undefined, { schema: stockSchema });
    await patched.setup();
    await stock.setup();

    const config = await writeOneStep(patched);
    await writeOneStep(stock);

    const stockRows = await checkpointRows(pool, stockSchema);
    // The stock saver marks the consumed channel with an `empty` row; the patch writes none.
    expect(stockRows.blobs.filter((row) => row.type === 'empty')).toHaveLength(1);
    expect(await checkpointRows(pool, patchedSchema)).toEqual({
      ...stockRows,
      blobs: stockRows.blobs.filter((row) => row.type !== 'empty'),
    });
    const readByStock = await new PostgresSaver(pool, undefined, {
      schema: patchedSchema,
    }).getTuple(config);
    const stockReadsItsOwn = await stock.getTuple(config);
    expect(readByStock?.checkpoint).toEqual(stockReadsItsOwn?.checkpoint);
    expect(readByStock?.checkpoint.channel_values).toEqual({ inbound: 'Hello', reply: 'Dear Ann' });
    expect(readByStock?.pendingWrites).toEqual(
      expect.arrayContaining([
        ['task-a', 'reply', 'first'],
        ['task-b', '__error__', { message: 'second' }],
      ]),
    );
  });

  test('when the patch is switched off, then a thread is drafted and sent all the same', async () => {
    const emulator: Emulator = await startEmulator();
    const instance = await startInstance({
      mode: 'postgres',
      emulator,
      schema: patchedSchema,
      patches: { oneStatementCheckpointWrites: false },
    });
    try {
      const { thread_id } = (
        await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL }).expect(201)
      ).body;
      const approved = await request(instance.app).post(`/threads/${thread_id}/approve`);
      expect(approved.body).toMatchObject({ status: 'sent' });
    } finally {
      await instance.close();
      await emulator.close();
    }
  });
});

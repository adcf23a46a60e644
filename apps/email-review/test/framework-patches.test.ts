import type { Checkpoint, PendingWrite } from '@langchain/langgraph-checkpoint';
import { emptyCheckpoint } from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { withTransaction } from '@repo/pg-kit';
import pg from 'pg';
import request from 'supertest';
import { OneRowPostgresSaver } from '../src/patches/langgraph-checkpoint-postgres-one-row-checkpoints.js';
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
  const rows = async (table: string, order: string) =>
    (await pool.query(`SELECT * FROM "${schema}".${table} ORDER BY ${order}`)).rows;
  return {
    checkpoints: await rows('checkpoints', 'checkpoint_id'),
    blobs: await rows('checkpoint_blobs', 'channel, version'),
    writes: await rows('checkpoint_writes', 'task_id, idx'),
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

  test('when the one-row saver writes a step, then its checkpoint is one row and no blob, its writes the stock rows, and it reads back what the stock saver reads of the same step', async () => {
    const patched = new OneRowPostgresSaver(pool, patchedSchema);
    const stock = new PostgresSaver(pool, undefined, { schema: stockSchema });
    await patched.setup();
    await stock.setup();

    const config = await writeOneStep(patched);
    await writeOneStep(stock);

    const patchedRows = await checkpointRows(pool, patchedSchema);
    const stockRows = await checkpointRows(pool, stockSchema);
    expect(stockRows.blobs).toHaveLength(3);
    expect(patchedRows.blobs).toEqual([]);
    expect(patchedRows.checkpoints).toHaveLength(1);
    expect(patchedRows.checkpoints[0].checkpoint.channel_values).toEqual({
      inbound: ['json', '"Hello"'],
      reply: ['json', '"Dear Ann"'],
    });
    expect(patchedRows.writes).toEqual(stockRows.writes);
    const ours = await patched.getTuple(config);
    const stockReadsItsOwn = await stock.getTuple(config);
    expect(ours?.checkpoint).toEqual(stockReadsItsOwn?.checkpoint);
    expect(ours?.checkpoint.channel_values).toEqual({ inbound: 'Hello', reply: 'Dear Ann' });
    expect(ours?.metadata).toEqual(stockReadsItsOwn?.metadata);
    expect(ours?.pendingWrites).toEqual(stockReadsItsOwn?.pendingWrites);
    expect(ours?.pendingWrites).toEqual(
      expect.arrayContaining([
        ['task-a', 'reply', 'first'],
        ['task-b', '__error__', { message: 'second' }],
      ]),
    );
    const listed = [];
    for await (const tuple of patched.list({ configurable: { thread_id: 'patched' } }))
      listed.push(tuple.checkpoint.channel_values);
    expect(listed).toEqual([{ inbound: 'Hello', reply: 'Dear Ann' }]);
  });

  test('when a thread was written by the stock saver (before the patch), then the one-row saver reads it the same, and its next checkpoint holds the whole state in one row', async () => {
    const stockConfig = { configurable: { thread_id: 'patched', checkpoint_ns: '' } };
    const stock = new PostgresSaver(pool, undefined, { schema: stockSchema });
    const patched = new OneRowPostgresSaver(pool, stockSchema);
    const before = await stock.getTuple(stockConfig);
    expect(await patched.getTuple(stockConfig)).toEqual(before);

    const next: Checkpoint = {
      ...before!.checkpoint,
      id: '1f0c0000-0000-6000-8000-000000000002',
      channel_values: { ...before!.checkpoint.channel_values, reply: 'Dear Bob', revision: 2 },
      channel_versions: { ...before!.checkpoint.channel_versions, reply: 2, revision: 1 },
    };
    const blobsBefore = (await checkpointRows(pool, stockSchema)).blobs.length;
    await patched.put(
      before!.config,
      next,
      { source: 'loop', step: 2, parents: {} },
      {
        reply: 2,
        revision: 1,
      },
    );
    const after = await patched.getTuple(stockConfig);
    expect(after?.checkpoint.id).toBe(next.id);
    expect(after?.checkpoint.channel_values).toEqual({
      inbound: 'Hello',
      reply: 'Dear Bob',
      revision: 2,
    });
    expect((await checkpointRows(pool, stockSchema)).blobs).toHaveLength(blobsBefore);
  });

  test('when the saver writes a step on a transaction’s client and the transaction rolls back, then none of it is kept', async () => {
    const schema = patchedSchema;
    const thread = { configurable: { thread_id: 'rolled-back' } };
    await expect(
      withTransaction(pool, async (client) => {
        const saver = new OneRowPostgresSaver(client, schema);
        await saver.put(
          { configurable: { thread_id: 'rolled-back', checkpoint_ns: '' } },
          { ...emptyCheckpoint(), id: '1f0c0000-0000-6000-8000-000000000009' },
          { source: 'loop', step: 1, parents: {} },
          {},
        );
        expect(await saver.getTuple(thread)).toBeDefined();
        throw new Error('the view write failed');
      }),
    ).rejects.toThrow('the view write failed');

    expect(await new OneRowPostgresSaver(pool, schema).getTuple(thread)).toBeUndefined();
  });

  test('when the patch is switched off, then a thread is drafted and sent all the same', async () => {
    const emulator: Emulator = await startEmulator();
    const instance = await startInstance({
      mode: 'postgres',
      emulator,
      schema: patchedSchema,
      patches: { oneRowCheckpoints: false },
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

import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { OneRowPostgresSaver } from '../src/patches/langgraph-checkpoint-postgres-one-row-checkpoints.js';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import pg from 'pg';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
  until,
} from './support/database.js';
import { OwnPostgres } from './support/own-postgres.js';
import { startServer, type ServerProcess } from './support/server-process.js';
import { freePort, SmtpSink } from './support/smtp-sink.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;

const MAIL_DOMAIN = 'shop.test';

/** The service as users run it, with the queues' waits in seconds. */
function serviceEnv(emulator: Emulator, databaseUrl: string, schema: string, smtpUrl: string) {
  return {
    LLM_A_API_KEY: 'test-key',
    LLM_A_BASE_URL: `${emulator.url}/v1`,
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: schema,
    PG_POOL_MAX: '30',
    SMTP_URL: smtpUrl,
    MAIL_FROM: `Support <support@${MAIL_DOMAIN}>`,
    SMTP_TIMEOUT_MS: '1000',
    DELIVERY_RETRY_DELAY_SECONDS: '1',
    DELIVERY_RETRY_BACKOFF: 'false',
    DELIVERY_MAX_ATTEMPTS: '100',
    DELIVERY_LEASE_SECONDS: '4',
    // A killed process's model jobs are anyone's after this (the queue then finishes them).
    MODEL_JOB_LEASE_SECONDS: '3',
    LLM_RETRY_BUDGET_MS: '1000',
    LOG_LEVEL: 'info',
  };
}

async function post(
  url: string,
  body?: unknown,
): Promise<{ status: number; body: { thread_id: string } }> {
  const res = await fetch(url, {
    method: 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as { thread_id: string } };
}

async function createThreads(url: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const created = await post(`${url}/threads`, {
      inbound: `Please refund the double charge on invoice INV-${i}.`,
      from: `customer${i}@example.com`,
      subject: `Refund ${i}`,
    });
    expect(created.status).toBe(201);
    ids.push(created.body.thread_id);
  }
  return ids;
}

const replyId = (threadId: string) => `<reply-${threadId}@${MAIL_DOMAIN}>`;

async function stop(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

interface ThreadState {
  status: string;
  delivery: string | null;
  checkpointSent: boolean;
}

/** Each thread as the database holds it: index status, delivery record, checkpoint. */
async function threadStates(
  databaseUrl: string,
  schema: string,
  ids: string[],
): Promise<Map<string, ThreadState>> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const rows = await pool.query<{ thread_id: string; status: string; delivery: string | null }>(
      `SELECT t.thread_id, t.status, d.status AS delivery
       FROM "${schema}".email_threads t LEFT JOIN "${schema}".email_deliveries d USING (thread_id)
       WHERE t.thread_id = ANY($1)`,
      [ids],
    );
    const saver = new OneRowPostgresSaver(pool, schema);
    const states = new Map<string, ThreadState>();
    for (const row of rows.rows) {
      const tuple = await saver.getTuple({ configurable: { thread_id: row.thread_id } });
      const values = tuple?.checkpoint.channel_values as { sent?: unknown } | undefined;
      states.set(row.thread_id, {
        status: row.status,
        delivery: row.delivery,
        checkpointSent: Boolean(values?.sent),
      });
    }
    return states;
  } finally {
    await pool.end();
  }
}

/** Awaiting review with nothing queued, or sent with its message delivered and checkpointed. */
function obeysInvariant(state: ThreadState | undefined): boolean {
  if (!state) return false;
  if (state.status === 'awaiting_review') return state.delivery === null && !state.checkpointSent;
  return state.status === 'sent' && state.delivery === 'delivered' && state.checkpointSent;
}

function report(name: string, values: Record<string, unknown>): void {
  mkdirSync('test-output', { recursive: true });
  writeFileSync(`test-output/${name}.json`, JSON.stringify(values, null, 2));
}

describePg('delivery through crashes (real service processes, PostgreSQL)', () => {
  let emulator: Emulator;
  let sink: SmtpSink;
  const servers: ServerProcess[] = [];
  const schemas: string[] = [];

  beforeAll(async () => {
    emulator = await startEmulator();
    sink = await SmtpSink.start();
  });
  afterAll(async () => {
    for (const server of servers) await stop(server);
    await sink?.stop();
    await emulator?.close();
    for (const schema of schemas) await dropSchema(schema);
  });

  test('when the service is SIGKILLed during 60 concurrent approves and restarted, then every thread converges to the invariant with no request', async () => {
    const schema = freshSchema('crash');
    schemas.push(schema);
    const env = serviceEnv(emulator, TEST_DATABASE_URL, schema, sink.url);
    const doomed = await startServer(env);
    servers.push(doomed.process);
    const ids = await createThreads(doomed.url, 60);

    let answered = 0;
    const answers = ids.map((id) =>
      post(`${doomed.url}/threads/${id}/approve`)
        .then((res) => {
          answered += 1;
          return res.status;
        })
        .catch(() => 0),
    );
    await until(() => answered >= 15, 'the first answers');
    doomed.process.child.kill('SIGKILL');
    const statuses = await Promise.all(answers);
    await doomed.process.exited;
    const approved = ids.filter((_, i) => statuses[i] === 200);

    const restarted = await startServer(env);
    servers.push(restarted.process);
    const started = Date.now();
    let states = new Map<string, ThreadState>();
    await until(
      async () => {
        states = await threadStates(TEST_DATABASE_URL, schema, ids);
        return ids.every((id) => obeysInvariant(states.get(id)));
      },
      'every thread to obey the invariant',
      60_000,
    );
    const convergedMs = Date.now() - started;

    for (const id of approved)
      expect(states.get(id)).toMatchObject({ status: 'sent', delivery: 'delivered' });
    const awaiting = ids.filter((id) => states.get(id)!.status === 'awaiting_review');
    for (const id of awaiting) expect(sink.byMessageId(replyId(id))).toHaveLength(0);
    const sent = ids.filter((id) => states.get(id)!.status === 'sent');
    for (const id of sent) expect(sink.byMessageId(replyId(id)).length).toBeGreaterThanOrEqual(1);
    report('delivery-crash-sigkill', {
      approves: ids.length,
      answered_200: approved.length,
      unanswered_or_failed: ids.length - approved.length,
      sent: sent.length,
      awaiting_review: awaiting.length,
      duplicate_deliveries: sink.duplicates(),
      converged_after_restart_ms: convergedMs,
    });
    await stop(restarted.process);
  }, 120_000);

  test('when two instances share one database, then 100 approved threads are each delivered once', async () => {
    const schema = freshSchema('twoinst');
    schemas.push(schema);
    const env = serviceEnv(emulator, TEST_DATABASE_URL, schema, sink.url);
    const [first, second] = await Promise.all([startServer(env), startServer(env)]);
    servers.push(first!.process, second!.process);
    const ids = await createThreads(first!.url, 100);
    const before = sink.received.length;

    // Ten at a time, alternating instances: the point is who delivers, not the lock pool's limits.
    const statuses: number[] = [];
    for (let start = 0; start < ids.length; start += 10)
      statuses.push(
        ...(await Promise.all(
          ids
            .slice(start, start + 10)
            .map(
              async (id, i) =>
                (await post(`${[first!, second!][i % 2]!.url}/threads/${id}/approve`)).status,
            ),
        )),
      );
    expect(statuses.every((status) => status === 200)).toBe(true);

    await until(
      async () =>
        [...(await threadStates(TEST_DATABASE_URL, schema, ids)).values()].every(
          (s) => s.delivery === 'delivered',
        ),
      'all 100 deliveries',
      60_000,
    );
    const received = sink.received.slice(before);
    expect(received).toHaveLength(100);
    expect(new Set(received.map((mail) => mail.parsed.messageId))).toEqual(
      new Set(ids.map(replyId)),
    );
    const deliveredBy = [first!, second!].map(
      (server) =>
        server.process
          .stdout()
          .split('\n')
          .filter((line) => line.includes('"msg":"email delivered"')).length,
    );
    report('delivery-two-instances', {
      threads: 100,
      received: received.length,
      delivered_by_instance: deliveredBy,
    });
  }, 120_000);

  test('when PostgreSQL stops in the middle of an SMTP exchange, then the service keeps running and delivers the message once after it returns', async () => {
    const cluster = await OwnPostgres.create();
    const port = await freePort();
    // An SMTP server that accepts the connection and says nothing: the attempt is held, its
    // transaction open, while the database goes away under it.
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(port, '127.0.0.1', resolve));
    const env = {
      ...serviceEnv(emulator, cluster.url, 'public', `smtp://127.0.0.1:${port}`),
      // Long enough for pg_ctl to stop the cluster within the held exchange on a loaded machine.
      SMTP_TIMEOUT_MS: '5000',
      DELIVERY_LEASE_SECONDS: '16',
    };
    let server: ServerProcess | undefined;
    const sink = new SmtpSink(port);
    try {
      const running = await startServer(env);
      server = running.process;
      const [id] = await createThreads(running.url, 1);
      expect((await post(`${running.url}/threads/${id}/approve`)).status).toBe(200);
      await until(() => held.length > 0, 'the delivery attempt to connect');

      cluster.stop();
      // The attempt times out (5 s), its record cannot be written, nor can the queue note the
      // failure: pg-boss 10's own workers made that an unhandled rejection that ended the process.
      await until(
        () => server!.stdout().includes('"msg":"delivery attempt not recorded"'),
        'the attempt to fail on the missing database',
        20_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(server.child.exitCode).toBeNull();
      expect(server.child.signalCode).toBeNull();

      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
      await sink.listen();
      cluster.start();

      await until(
        async () =>
          (await threadStates(cluster.url, 'public', [id!])).get(id!)?.delivery === 'delivered',
        'the delivery after the database returned',
        30_000,
      );
      expect(server.child.exitCode).toBeNull();
      expect(server.stdout()).not.toContain('unhandled rejection');
      expect(sink.byMessageId(replyId(id!))).toHaveLength(1);
      report('delivery-postgres-stops-mid-exchange', {
        process_alive: server.child.exitCode === null,
        received: sink.received.length,
        duplicate_deliveries: sink.duplicates(),
      });
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
      await stop(server);
      await sink.stop();
      cluster.remove();
    }
  }, 120_000);

  test('when the last allowed attempt dies with its instance, then the delivery ends failed (not queued for ever) and redeliver sends it once', async () => {
    const schema = freshSchema('lastdies');
    schemas.push(schema);
    const port = await freePort();
    // An SMTP server that accepts and says nothing: the one attempt is held while its instance dies.
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(port, '127.0.0.1', resolve));
    const env = {
      ...serviceEnv(emulator, TEST_DATABASE_URL, schema, `smtp://127.0.0.1:${port}`),
      DELIVERY_MAX_ATTEMPTS: '1',
      SMTP_TIMEOUT_MS: '5000',
      DELIVERY_LEASE_SECONDS: '16',
    };
    const lateSink = new SmtpSink(port);
    let restarted: ServerProcess | undefined;
    try {
      const doomed = await startServer(env);
      servers.push(doomed.process);
      const [id] = await createThreads(doomed.url, 1);
      expect((await post(`${doomed.url}/threads/${id}/approve`)).status).toBe(200);
      await until(() => held.length > 0, 'the only attempt to connect');
      doomed.process.child.kill('SIGKILL');
      await doomed.process.exited;

      const running = await startServer(env);
      restarted = running.process;
      servers.push(restarted);
      // pg-boss expires the dead attempt's job after its lease and, its retries spent, fails it.
      await until(
        async () =>
          (await threadStates(TEST_DATABASE_URL, schema, [id!])).get(id!)?.delivery === 'failed',
        'the delivery to be failed',
        60_000,
      );
      const thread = (await (await fetch(`${running.url}/threads/${id}`)).json()) as {
        delivery: { status: string; attempts: number; last_error: string };
      };
      expect(thread.delivery).toMatchObject({ status: 'failed', attempts: 1 });
      expect(thread.delivery.last_error).toMatch(/last attempt did not finish/);

      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
      await lateSink.listen();
      const redelivered = await fetch(`${running.url}/threads/${id}/redeliver`, { method: 'POST' });
      expect(redelivered.status).toBe(200);
      await until(
        async () =>
          (await threadStates(TEST_DATABASE_URL, schema, [id!])).get(id!)?.delivery === 'delivered',
        'the redelivery',
        30_000,
      );
      expect(lateSink.byMessageId(replyId(id!))).toHaveLength(1);
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
      await stop(restarted);
      await lateSink.stop();
    }
  }, 150_000);

  test('when PostgreSQL restarts while messages are queued, then all are delivered afterwards', async () => {
    const cluster = await OwnPostgres.create();
    const port = await freePort();
    const lateSink = new SmtpSink(port);
    const env = serviceEnv(emulator, cluster.url, 'public', lateSink.url);
    let server: ServerProcess | undefined;
    try {
      const running = await startServer(env);
      server = running.process;
      const ids = await createThreads(running.url, 5);
      for (const id of ids)
        expect((await post(`${running.url}/threads/${id}/approve`)).status).toBe(200);
      await until(
        async () =>
          [...(await threadStates(cluster.url, 'public', ids)).values()].every(
            (s) => s.delivery === 'queued',
          ),
        'queued messages',
      );

      cluster.stop();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      cluster.start();
      await lateSink.listen();

      await until(
        async () =>
          [...(await threadStates(cluster.url, 'public', ids)).values()].every(
            (s) => s.delivery === 'delivered',
          ),
        'deliveries after the restart',
        60_000,
      ).catch(async (error: unknown) => {
        // What CI needs to tell a lost job from a stuck worker: each record and the service's log.
        const states = await threadStates(cluster.url, 'public', ids).catch(() => new Map());
        throw new Error(
          `${String(error)}\nstates: ${JSON.stringify([...states])}\nlog:\n${server!
            .stdout()
            .split('\n')
            .slice(-60)
            .join('\n')}`,
        );
      });
      expect(server.child.exitCode).toBeNull();
      expect(new Set(lateSink.received.map((mail) => mail.parsed.messageId))).toEqual(
        new Set(ids.map(replyId)),
      );
      report('delivery-postgres-restart', {
        queued: ids.length,
        received: lateSink.received.length,
        duplicate_deliveries: lateSink.duplicates(),
      });
    } finally {
      await stop(server);
      await lateSink.stop();
      cluster.remove();
    }
  }, 120_000);
});

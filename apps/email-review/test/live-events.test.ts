import { startEmulator, type Emulator } from '@repo/llm-emulator';
import pg from 'pg';
import { listenerName } from '../src/changes/postgres-changes.js';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
} from './support/database.js';
import { openEventStream, type EventStream, type StreamedEvent } from './support/event-stream.js';
import { startServer, type ServerProcess } from './support/server-process.js';

const TOKEN = 'live-events-token';
const schema = freshSchema('live_events');
let emulator: Emulator;
const servers: ServerProcess[] = [];
const streams: EventStream[] = [];
let a: string;
let b: string;

async function call(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { thread_id: string; revision: number; status: string },
  };
}

async function createThread(base: string, n: number) {
  const created = await call(base, 'POST', '/threads', {
    inbound: `Please refund the double charge on invoice INV-${n}.`,
    from: `customer${n}@example.com`,
    subject: `Refund ${n}`,
  });
  expect([created.status, created.body.status]).toEqual([201, 'awaiting_review']);
  return created.body;
}

const of = (id: string) => (events: StreamedEvent[]) =>
  events.filter((e) => e.data['thread_id'] === id);

async function stream(base: string, lastEventId?: string) {
  const opened = await openEventStream(base, {
    apiToken: TOKEN,
    ...(lastEventId ? { lastEventId } : {}),
  });
  streams.push(opened);
  return opened;
}

const runIt = (await postgresTestsEnabled()) ? it : it.skip;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  const env = {
    LLM_A_API_KEY: 'test-key',
    LLM_A_BASE_URL: `${emulator.url}/v1`,
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: schema,
    PG_POOL_MAX: '6',
    API_TOKEN: TOKEN,
    EVENTS_KEEPALIVE_MS: '200',
    LOG_LEVEL: 'info',
  };
  // One after the other: both set the schema up, the second finds it in place.
  const first = await startServer(env);
  const second = await startServer(env);
  servers.push(first.process, second.process);
  [a, b] = [first.url, second.url];
}, 120_000);

afterAll(async () => {
  for (const opened of streams) opened.close();
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await emulator?.close();
  await dropSchema(schema);
});

describe('GET /events across two instances (PostgreSQL LISTEN/NOTIFY), read with eventsource-parser', () => {
  runIt(
    'when a thread is created and approved through instance B, then a client of instance A sees each change with its status and revision',
    async () => {
      const watching = await stream(a);
      expect(watching.status).toBe(200);

      const thread = await createThread(b, 1);
      await watching.until(
        (events) =>
          of(thread.thread_id)(events).some((e) => e.data['status'] === 'awaiting_review'),
        'the drafted thread',
      );
      const approved = await fetch(`${b}/threads/${thread.thread_id}/approve`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'if-match': `"${thread.revision}"` },
      });
      expect(approved.status).toBe(200);
      await watching.until(
        (events) =>
          of(thread.thread_id)(events).some(
            (e) => e.data['status'] === 'sent' && e.data['delivery'] !== 'queued',
          ),
        'the approval and its delivery',
      );

      const seen = of(thread.thread_id)(watching.events);
      expect(seen[0]).toMatchObject({
        event: 'thread.created',
        data: { thread_id: thread.thread_id },
      });
      expect(seen.slice(1).every((e) => e.event === 'thread.updated')).toBe(true);
      expect(seen.find((e) => e.data['status'] === 'awaiting_review')!.data).toMatchObject({
        revision: thread.revision,
        delivery: null,
      });
      // No SMTP_URL: the delivery worker writes the reply to the log, and that change comes too.
      expect(seen.at(-1)!.data).toMatchObject({ status: 'sent', delivery: 'logged' });
      // Every event has an id (for Last-Event-ID), and no email text rides along.
      expect(seen.every((e) => e.id === e.data['id'])).toBe(true);
      expect(JSON.stringify(seen)).not.toContain('refund');
      await watching.until(() => watching.comments.includes('keep-alive'), 'a keep-alive comment');
    },
    60_000,
  );

  runIt(
    'when a client reconnects with Last-Event-ID, then it first gets the changes it missed, in order',
    async () => {
      const first = await stream(a);
      const before = await createThread(b, 2);
      await first.until(
        (events) =>
          of(before.thread_id)(events).some((e) => e.data['status'] === 'awaiting_review'),
        'the first thread drafted',
      );
      const lastId = first.events.at(-1)!.id!;
      first.close();

      const missed = await createThread(b, 3);
      const resumed = await stream(a, lastId);
      await resumed.until(
        (events) =>
          of(missed.thread_id)(events).some((e) => e.data['status'] === 'awaiting_review'),
        'the missed thread replayed',
      );
      expect(resumed.events.map((e) => e.event)).not.toContain('reset');
      expect(of(before.thread_id)(resumed.events)).toEqual([]);
      expect(of(missed.thread_id)(resumed.events).map((e) => e.event)[0]).toBe('thread.created');
    },
    60_000,
  );

  runIt(
    'when a client resumes from an id the instance no longer holds, then it is told to reset',
    async () => {
      const resumed = await stream(a, 'no-such-id');
      await resumed.until((events) => events.some((e) => e.event === 'reset'), 'the reset event');
    },
    30_000,
  );

  runIt(
    'when the change listener loses its connection, then open streams end, a resume from before the gap is told to reset, and changes flow again',
    async () => {
      const open = await stream(a);
      const before = await createThread(b, 4);
      await open.until(
        (events) =>
          of(before.thread_id)(events).some((e) => e.data['status'] === 'awaiting_review'),
        'the thread drafted',
      );
      const lastId = open.events.at(-1)!.id!;

      // Both instances' listeners (this schema's only): changes committed meanwhile are missed.
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      try {
        const cut = await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
          [listenerName(schema)],
        );
        expect(cut.rowCount).toBe(2);
      } finally {
        await admin.end();
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        open.ended,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('the open stream did not end')), 15_000);
        }),
      ]).finally(() => clearTimeout(timer));

      const resumed = await stream(a, lastId);
      await resumed.until((events) => events.some((e) => e.event === 'reset'), 'the reset event');
      const after = await createThread(b, 5);
      await resumed.until(
        (events) => of(after.thread_id)(events).some((e) => e.data['status'] === 'awaiting_review'),
        'a change after the reconnect',
      );
    },
    60_000,
  );

  runIt(
    'when the stream is asked for without the token, then it is refused like the API',
    async () => {
      const res = await fetch(`${a}/events`, { headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(401);
      await res.body?.cancel();
    },
  );
});

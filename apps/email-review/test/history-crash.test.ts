import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
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
import { startServer, type ServerProcess } from './support/server-process.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;

const THREADS = 40;

interface Thread {
  thread_id: string;
  status: string;
  draft: string | null;
  revision: number;
  delivery: { status: string } | null;
}
interface Event {
  type: string;
  actor?: string;
  revision?: number;
  text?: string;
  text_sha256?: string;
}

async function call(method: string, url: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const REVISED = new Set(['drafted', 'edited', 'redrafted', 'recovered']);
const DELIVERY = new Set([
  'queued',
  'delivered',
  'logged',
  'delivery_failed',
  'no_recipient',
  'redelivered',
]);

/**
 * What "the history agrees with the thread" means: it starts with `created`; its revisions only grow
 * and the last one is the thread's; an `edited` text that is the last revision is the draft; a sent
 * thread has exactly one `approved`, of its revision and its text, then `queued`, and its delivery's
 * last event is its delivery status; any other thread has no approval. Answers what disagrees.
 */
function disagreements(thread: Thread, events: Event[], checkpointRevision: number | undefined) {
  const problems: string[] = [];
  if (events[0]?.type !== 'created') problems.push('does not start with created');
  const revised = events.filter((event) => REVISED.has(event.type));
  const revisions = revised.map((event) => event.revision!);
  if (revisions.some((revision, i) => i > 0 && revision < revisions[i - 1]!))
    problems.push(`revisions go back: ${revisions.join(',')}`);
  if ((revisions.at(-1) ?? 0) !== thread.revision)
    problems.push(`last revision ${revisions.at(-1)} but thread at ${thread.revision}`);
  const last = revised.at(-1);
  if (last?.type === 'edited' && thread.status !== 'drafting' && last.text !== thread.draft)
    problems.push('last edited text is not the draft');
  const approvals = events.filter((event) => event.type === 'approved');
  if (thread.status === 'sent') {
    const approval = approvals[0];
    if (approvals.length !== 1) problems.push(`${approvals.length} approvals of a sent thread`);
    else if (approval!.revision !== thread.revision) problems.push('approved another revision');
    else if (approval!.text_sha256 !== sha256(thread.draft ?? ''))
      problems.push('approved another text');
    if (events[events.indexOf(approval!) + 1]?.type !== 'queued')
      problems.push('approval not queued');
    const deliveryEvents = events.filter((event) => DELIVERY.has(event.type));
    const expected = {
      queued: 'queued',
      delivered: 'delivered',
      logged: 'logged',
      failed: 'delivery_failed',
      no_recipient: 'no_recipient',
    }[thread.delivery?.status as 'queued'];
    if (deliveryEvents.at(-1)?.type !== expected && deliveryEvents.at(-1)?.type !== 'redelivered')
      problems.push(
        `delivery ${thread.delivery?.status} but last event ${deliveryEvents.at(-1)?.type}`,
      );
  } else if (approvals.length > 0) problems.push(`${thread.status} thread with an approval`);
  if (thread.status !== 'drafting' && checkpointRevision !== thread.revision)
    problems.push(`checkpoint at revision ${checkpointRevision}, thread at ${thread.revision}`);
  return problems;
}

describePg('history through a crash (real service processes, PostgreSQL)', () => {
  let emulator: Emulator;
  const servers: ServerProcess[] = [];
  const schema = freshSchema('histcrash');

  beforeAll(async () => {
    emulator = await startEmulator();
  });
  afterAll(async () => {
    for (const server of servers)
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    await emulator?.close();
    await dropSchema(schema);
  });

  async function checkpointRevisions(ids: string[]): Promise<Map<string, number | undefined>> {
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
    try {
      const saver = new OneRowPostgresSaver(pool, schema);
      const revisions = new Map<string, number | undefined>();
      for (const id of ids) {
        const tuple = await saver.getTuple({ configurable: { thread_id: id } });
        revisions.set(id, (tuple?.checkpoint.channel_values as { revision?: number }).revision);
      }
      return revisions;
    } finally {
      await pool.end();
    }
  }

  /** Every thread and its history as the service answers them, and what disagrees. */
  async function audit(url: string, ids: string[]) {
    const threads: Thread[] = [];
    const histories: Event[][] = [];
    for (const id of ids) {
      threads.push((await call('GET', `${url}/threads/${id}`)).body as unknown as Thread);
      histories.push((await call('GET', `${url}/threads/${id}/history`)).body.events as Event[]);
    }
    // The checkpoints last: each is written before its index row, so one read after a settled
    // thread is at least as new (read first, a recovery finishing in between looked like a gap).
    const checkpoints = await checkpointRevisions(ids);
    const problems: Record<string, string[]> = {};
    ids.forEach((id, i) => {
      const found = disagreements(threads[i]!, histories[i]!, checkpoints.get(id));
      if (found.length > 0) problems[id] = found;
    });
    return { threads, problems };
  }

  test('when the service is SIGKILLed during a burst of edits and approves and restarted, then every thread’s history agrees with its state and revision', async () => {
    const env = {
      LLM_A_API_KEY: 'test-key',
      LLM_A_BASE_URL: `${emulator.url}/v1`,
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: schema,
      PG_POOL_MAX: '30',
      // A delivery job the killed process held is handed out again after this (pg-boss's expiry),
      // and its retry waits 1 s (the default, 30-60 s, would outlast the test's wait).
      DELIVERY_LEASE_SECONDS: '4',
      DELIVERY_RETRY_DELAY_SECONDS: '1',
      DELIVERY_RETRY_BACKOFF: 'false',
      SMTP_TIMEOUT_MS: '1000',
      // The killed process's model jobs are anyone's after this: the restarted one runs them.
      MODEL_JOB_LEASE_SECONDS: '3',
      LLM_RETRY_BUDGET_MS: '1000',
      LOG_LEVEL: 'info',
    };
    const doomed = await startServer(env);
    servers.push(doomed.process);
    const ids: string[] = [];
    for (let i = 0; i < THREADS; i += 1) {
      const created = await call('POST', `${doomed.url}/threads`, {
        inbound: `Please refund the double charge on invoice INV-${i}.`,
        from: `customer${i}@example.com`,
      });
      expect(created.status).toBe(201);
      ids.push(created.body.thread_id as string);
    }

    let answered = 0;
    const steps = (id: string, i: number) => [
      () => call('POST', `${doomed.url}/threads/${id}/edit`, { draft: `Reply ${i}, first edit.` }),
      ...(i % 4 === 0
        ? [() => call('POST', `${doomed.url}/threads/${id}/edit`, { instructions: 'Shorter.' })]
        : []),
      () => call('POST', `${doomed.url}/threads/${id}/edit`, { draft: `Reply ${i}, second edit.` }),
      () => call('POST', `${doomed.url}/threads/${id}/approve`, { revision: i % 4 === 0 ? 4 : 3 }),
    ];
    const bursts = ids.map(async (id, i) => {
      for (const step of steps(id, i)) {
        const res = await step().catch(() => undefined);
        if (!res) return;
        answered += 1;
      }
    });
    await until(() => answered >= THREADS * 1.5, 'half the burst');
    doomed.process.child.kill('SIGKILL');
    await Promise.all(bursts);
    await doomed.process.exited;

    const restarted = await startServer(env);
    servers.push(restarted.process);
    // Nobody sends a request: the queue delivers what was queued, and runs again every redraft the
    // crash cut short (its thread left `drafting`).
    let audited = await audit(restarted.url, ids);
    const drafting = audited.threads.filter((thread) => thread.status === 'drafting');
    const unsettled = () =>
      audited.threads.filter(
        (thread) => thread.delivery?.status === 'queued' || thread.status === 'drafting',
      );
    await until(
      async () => {
        audited = await audit(restarted.url, ids);
        return unsettled().length === 0;
      },
      'the queue to settle every thread',
      60_000,
    ).catch((error: Error) => {
      const left = unsettled().map((t) => `${t.thread_id} ${t.status} ${t.delivery?.status}`);
      const warnings = restarted.process
        .stdout()
        .split('\n')
        .filter((line) => /"level":(40|50|60)/.test(line))
        .slice(-10);
      throw new Error(
        `${error.message}; still unsettled: ${left.join(', ')}\n${warnings.join('\n')}`,
        { cause: error },
      );
    });
    expect(audited.problems).toEqual({});
    const counts = (threads: Thread[]) =>
      threads.reduce<Record<string, number>>((all, thread) => {
        all[thread.status] = (all[thread.status] ?? 0) + 1;
        return all;
      }, {});
    for (const thread of drafting) {
      const events = (await call('GET', `${restarted.url}/threads/${thread.thread_id}/history`))
        .body.events as Event[];
      expect(events.at(-1)).toMatchObject({ type: 'redrafted', instructions: 'Shorter.' });
    }

    mkdirSync('test-output', { recursive: true });
    const report = {
      threads: THREADS,
      answered_before_kill: answered,
      drafting_after_restart: drafting.length,
      settled: counts(audited.threads),
    };
    writeFileSync('test-output/history-crash-sigkill.json', JSON.stringify(report, null, 2));
  }, 180_000);
});

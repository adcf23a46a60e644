import { startEmulator, type Emulator } from '@repo/llm-emulator';
import pg from 'pg';
import { postgresTestsEnabled, until } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { OwnPostgres } from './support/own-postgres.js';
import {
  startServer,
  spawnServer,
  waitUntilListening,
  type ServerProcess,
} from './support/server-process.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;

interface Answer {
  started: number;
  ended: number;
  status: number;
  code?: string | undefined;
  retryAfter: string | null;
}

async function call(url: string, init?: RequestInit): Promise<Answer> {
  const started = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    const body = (await res.json().catch(() => ({}))) as { code?: string };
    return {
      started,
      ended: Date.now(),
      status: res.status,
      code: body.code,
      retryAfter: res.headers.get('retry-after'),
    };
  } catch {
    return { started, ended: Date.now(), status: 0, retryAfter: null };
  }
}

const postJson = (url: string, body: unknown) =>
  call(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The service's log lines at warn level or above (pino: 40 warn, 50 error, 60 fatal). */
function warnings(server: ServerProcess): Array<{ msg: string }> {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((line) => line.level >= 40);
}

async function createThread(url: string): Promise<string> {
  const res = await fetch(`${url}/threads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ inbound: BILLING_EMAIL, from: 'ann@example.com' }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { thread_id: string }).thread_id;
}

/** Sent with its message queued or delivered, or not sent with nothing queued: for every thread. */
async function expectDeliveryInvariant(cluster: OwnPostgres, schema: string): Promise<void> {
  const db = new pg.Client({ connectionString: cluster.url });
  await db.connect();
  try {
    const rows = await db.query<{ status: string; delivery: string | null }>(
      `SELECT t.status, d.status AS delivery
       FROM "${schema}".email_threads t LEFT JOIN "${schema}".email_deliveries d USING (thread_id)`,
    );
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const row of rows.rows) {
      if (row.status === 'sent') expect(row.delivery).toMatch(/queued|delivered|logged/);
      else expect(row.delivery).toBeNull();
    }
  } finally {
    await db.end();
  }
}

describePg('database faults (a PostgreSQL cluster of the test own)', () => {
  let emulator: Emulator;
  let cluster: OwnPostgres;
  let server: ServerProcess | undefined;

  const env = (schema: string) => ({
    LLM_A_API_KEY: 'test-key',
    LLM_A_BASE_URL: `${emulator.url}/v1`,
    DATABASE_URL: cluster.url,
    DATABASE_SCHEMA: schema,
    PG_CONNECT_TIMEOUT_MS: '3000',
    PG_QUERY_TIMEOUT_MS: '3000',
  });

  beforeAll(async () => {
    emulator = await startEmulator();
    cluster = await OwnPostgres.create();
  }, 60_000);
  afterEach(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    server = undefined;
  });
  afterAll(async () => {
    await emulator?.close();
    cluster?.remove();
  });

  test('when PostgreSQL is stopped for 10 s under 4 clients, then requests answer 503 database_unavailable with Retry-After, the log says so a handful of times, and full service is back within 2 s of its return', async () => {
    const started = await startServer(env('faults_stop'));
    server = started.process;
    const { url } = started;
    const reviewable = await Promise.all(Array.from({ length: 40 }, () => createThread(url)));
    const before = warnings(server).length;
    const answers: Answer[] = [];
    let running = true;
    const client = async (n: number) => {
      for (let i = 0; running; i += 1) {
        const id = reviewable[(n * 10 + i) % reviewable.length]!;
        const step = i % 4;
        answers.push(
          await (step === 0
            ? postJson(`${url}/threads`, { inbound: BILLING_EMAIL, from: 'ann@example.com' })
            : step === 1
              ? call(`${url}/threads/${id}`)
              : step === 2
                ? call(`${url}/threads?limit=5`)
                : postJson(`${url}/threads/${id}/approve`, {})),
        );
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const clients = [0, 1, 2, 3].map(client);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const gaugeLine = /^email_review_threads\{status="awaiting_review"\} \d+$/m;
    expect(await (await fetch(`${url}/metrics`)).text()).toMatch(gaugeLine);
    cluster.stop();
    const down = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    // An operator's scrape still answers while the database is away; the index gauges keep their values.
    const scrape = await fetch(`${url}/metrics`);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toMatch(gaugeLine);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const upStarting = Date.now();
    cluster.start();
    const up = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    running = false;
    await Promise.all(clients);

    const during = answers.filter((a) => a.started > down + 500 && a.ended < upStarting);
    expect(during.length).toBeGreaterThan(20);
    const unexpected = during.filter(
      (a) =>
        a.status !== 503 || a.code !== 'database_unavailable' || !/^\d+$/.test(a.retryAfter ?? ''),
    );
    expect(unexpected).toEqual([]);
    const after = answers.filter((a) => a.started > up + 2_000);
    expect(after.length).toBeGreaterThan(10);
    // Approves of threads already sent answer 409; everything else succeeds.
    for (const answer of after) expect([200, 201, 409]).toContain(answer.status);
    const outageLines = warnings(server).slice(before);
    expect(outageLines.length).toBeLessThanOrEqual(10);
    expect(server.child.exitCode).toBeNull();
    await expectDeliveryInvariant(cluster, 'faults_stop');
  }, 90_000);

  test('when PostgreSQL is frozen (SIGSTOP), then every request answers within 10 s and /readyz within 2 s; once thawed, the service serves again', async () => {
    const started = await startServer(env('faults_frozen'));
    server = started.process;
    const { url } = started;
    const ids = await Promise.all(Array.from({ length: 3 }, () => createThread(url)));

    cluster.freeze();
    let answers: Answer[];
    let ready: Answer;
    try {
      [ready, ...answers] = await Promise.all([
        call(`${url}/readyz`),
        call(`${url}/threads/${ids[0]}`),
        call(`${url}/threads?limit=5`),
        postJson(`${url}/threads`, { inbound: BILLING_EMAIL, from: 'ann@example.com' }),
        postJson(`${url}/threads/${ids[1]}/approve`, {}),
        postJson(`${url}/threads/${ids[2]}/edit`, { draft: 'Dear Ann, refunded.' }),
      ]);
    } finally {
      cluster.thaw();
    }

    expect(ready.status).toBe(503);
    expect(ready.ended - ready.started).toBeLessThan(2_000);
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(200);
      expect(answer.ended - answer.started).toBeLessThan(10_000);
    }
    await until(async () => (await call(`${url}/readyz`)).status === 200, 'readyz 200', 20_000);
    await until(
      async () =>
        (await postJson(`${url}/threads`, { inbound: BILLING_EMAIL, from: 'ann@example.com' }))
          .status === 201,
      'a create to succeed',
      20_000,
    );
    await expectDeliveryInvariant(cluster, 'faults_frozen');
  }, 90_000);

  test('when PostgreSQL is down at start-up, then /healthz 200 and /readyz 503 until it comes up, then ready without a restart', async () => {
    cluster.stop();
    server = spawnServer(env('faults_startup'));
    const url = await waitUntilListening(server, 60_000, 'starting on');

    expect((await call(`${url}/healthz`)).status).toBe(200);
    expect((await call(`${url}/readyz`)).status).toBe(503);
    const refused = await postJson(`${url}/threads`, {
      inbound: BILLING_EMAIL,
      from: 'ann@example.com',
    });
    expect(refused).toMatchObject({ status: 503, code: 'database_unavailable' });
    cluster.start();

    await until(async () => (await call(`${url}/readyz`)).status === 200, 'readyz 200', 30_000);
    const id = await createThread(url);
    expect((await postJson(`${url}/threads/${id}/approve`, {})).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
    const waits = warnings(server).filter((line) => /not reachable/.test(line.msg));
    expect(waits).toHaveLength(1);
    await expectDeliveryInvariant(cluster, 'faults_startup');
  }, 90_000);
});

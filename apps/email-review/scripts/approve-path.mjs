// Issue 38's bar: the approve path, route to response, passes at most 15 of the app's own files.
// Counts the app's files with a function called during ONE approve request, in memory mode and
// against PostgreSQL, and lists them. Run after a build:
//   node apps/email-review/scripts/approve-path.mjs   (TEST_DATABASE_URL or the local test database)
// Exits 1 when a mode passes more than MOST_FILES files.
//
// What counts: the app's files (dist/, named here as their src/*.ts) with a function called between
// the moment the request reaches the server and the moment its answer is written (`res.end`, where
// V8's precise coverage is taken): route, operation, stores, transaction, graph, and what the
// decision calls. What does not: the work after the answer (the delivery worker sending the reply,
// the webhook outbox), the packages' own files (http-kit, pg-kit, LangGraph, pg-boss), and the change
// feed's listener (PostgreSQL), which hears the approval's NOTIFY on its own connection as the
// COMMIT returns. No worker is started, so no poll of theirs lands inside the window.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { Session } from 'node:inspector';
import { createLogger } from '@repo/http-kit';
import { startEmulator } from '@repo/llm-emulator';
import pg from 'pg';
import { queueSchema } from '../dist/db/tables.js';
import { createEmailReview } from '../dist/email-review.js';
import { createOpenAiClient } from '../dist/llm/openai-client.js';
import { createMemoryPersistence } from '../dist/persistence/memory-persistence.js';
import { openPostgresPersistence } from '../dist/persistence/postgres-persistence.js';

const URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MOST_FILES = 15;
const MODEL = 'gpt-4.1-mini';
const OWN_FILE = /\/apps\/email-review\/(?:src|dist)\/(.+)\.[jt]s$/;
const LISTENER = ['src/changes/postgres-changes.ts', 'src/changes/change-feed.ts'];

const session = new Session();
session.connect();
/** A session in the same thread answers synchronously, so a snapshot can be taken inside `res.end`. */
function post(method, params) {
  let answer;
  session.post(method, params, (error, result) => (answer = { error, result }));
  if (!answer) throw new Error(`${method} did not answer synchronously`);
  if (answer.error) throw answer.error;
  return answer.result;
}

/** The app's files with a function called since the last snapshot (minus the listener's). */
function filesRun(coverage) {
  const files = coverage.result
    .filter((script) => script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0))
    .map((script) => OWN_FILE.exec(script.url.replace(/^file:\/\//, ''))?.[1])
    .filter((file) => file !== undefined)
    .map((file) => `src/${file}.ts`)
    .sort();
  return files.includes(LISTENER[0]) ? files.filter((file) => !LISTENER.includes(file)) : files;
}

async function measure(mode, emulator) {
  const logger = createLogger({ name: 'approve-path', level: 'silent' });
  const schema = `er_approve_path_${randomBytes(4).toString('hex')}`;
  const persistence =
    mode === 'postgres'
      ? await openPostgresPersistence({ connectionString: URL, schema, poolMax: 4, logger })
      : createMemoryPersistence();
  const service = createEmailReview({
    persistence,
    llm: createOpenAiClient({
      apiKey: 'test-key',
      model: MODEL,
      baseURL: `${emulator.url}/v1`,
      timeoutMs: 10_000,
      maxRetries: 2,
    }),
    model: MODEL,
    logger,
  });
  let atAnswer;
  const server = createServer((req, res) => {
    if (req.url?.endsWith('/approve')) {
      const end = res.end.bind(res);
      res.end = (...args) => {
        atAnswer = post('Profiler.takePreciseCoverage');
        return end(...args);
      };
    }
    service.app(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const seen = [];
  const unsubscribe = persistence.changes.subscribe((change) => seen.push(change));
  try {
    const created = await fetch(`${base}/threads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        inbound: 'Hello, I was charged twice for invoice INV-2231. Could you refund it?',
        from: 'Ann Example <ann@example.com>',
      }),
    });
    const thread = await created.json();
    if (created.status !== 201) throw new Error(`create answered ${created.status}`);
    // The draft's change (PostgreSQL: its NOTIFY) has come in: none is left to arrive in the window.
    const deadline = Date.now() + 10_000;
    while (!seen.some((c) => c.thread_id === thread.thread_id && c.revision === thread.revision)) {
      if (Date.now() > deadline) throw new Error('the draft never reached the change feed');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    unsubscribe();

    post('Profiler.enable');
    post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    post('Profiler.takePreciseCoverage'); // counts from here
    const approved = await fetch(`${base}/threads/${thread.thread_id}/approve`, {
      method: 'POST',
      headers: { 'If-Match': `"${thread.revision}"` },
    });
    post('Profiler.stopPreciseCoverage');
    post('Profiler.disable');
    const body = await approved.json();
    if (approved.status !== 200 || body.delivery?.status !== 'queued')
      throw new Error(`approve answered ${approved.status} ${JSON.stringify(body)}`);
    const files = filesRun(atAnswer);
    if (!files.includes('src/operations/decide-thread.ts'))
      throw new Error(`the coverage did not name the app's files: ${files.join(', ')}`);
    return files;
  } finally {
    server.close();
    await service.close();
    if (mode === 'postgres') {
      const client = new pg.Client({ connectionString: URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.query(`DROP SCHEMA IF EXISTS "${queueSchema(schema)}" CASCADE`);
      await client.end();
    }
  }
}

const emulator = await startEmulator();
let over = false;
try {
  for (const mode of ['memory', 'postgres']) {
    const files = await measure(mode, emulator);
    over ||= files.length > MOST_FILES;
    console.log(
      `approve path (${mode}): ${files.length} of the app's files (at most ${MOST_FILES})\n  ${files.join('\n  ')}`,
    );
  }
} finally {
  session.disconnect();
  await emulator.close();
}
process.exitCode = over ? 1 : 0;

import { fileURLToPath } from 'node:url';
import { createLogger } from '@repo/http-kit';
import request from 'supertest';
import { createEmailReview, type EmailReviewDeps } from '../src/email-review.js';
import { createOpenAiClient } from '../src/llm/openai-client.js';
import { createMemoryPersistence } from '../src/persistence/memory-persistence.js';
import { createPostgresPersistence } from '../src/persistence/postgres-persistence.js';
import {
  dropSchema,
  freshSchema,
  TEST_DATABASE_URL,
  testModes,
  until,
} from './support/database.js';

// Issue 39: a service answers ready only once its help center folder is loaded.

const modes = await testModes();
const SAMPLES = fileURLToPath(
  new URL('../../../packages/knowledge/sample-help-center/', import.meta.url),
);
const logger = createLogger({ name: 'email-review-test', level: 'silent' });
// No model call is made: nothing is drafted.
const llm = createOpenAiClient({
  apiKey: 'test-key',
  model: 'test-model',
  baseURL: 'http://127.0.0.1:9/v1',
  timeoutMs: 1_000,
  maxRetries: 0,
});
/** The service as server.ts wires it, in memory unless `deps` says otherwise. */
const serviceWith = (deps: Partial<EmailReviewDeps>) =>
  createEmailReview({
    persistence: createMemoryPersistence(),
    llm,
    model: 'test-model',
    logger,
    ...deps,
  });

describe.each(modes)('readiness (%s)', (mode) => {
  const schema = freshSchema('ready');
  afterAll(async () => {
    if (mode === 'postgres') await dropSchema(schema);
  });

  test('when KB_DIR is set, then /readyz answers 503 help_center loading until the folder is loaded, then 200 with its articles there', async () => {
    const persistence =
      mode === 'postgres'
        ? createPostgresPersistence({
            connectionString: TEST_DATABASE_URL,
            schema,
            poolMax: 4,
            logger,
          })
        : createMemoryPersistence();
    const service = serviceWith({ persistence, helpCenter: { dir: SAMPLES, schema } });
    const http = request(service.app);
    try {
      const before = await http.get('/readyz');
      expect(before.status).toBe(503);
      expect(before.body).toMatchObject({ code: 'not_ready', help_center: 'loading' });

      const started = service.start();
      let ready: request.Response | undefined;
      await until(async () => {
        ready = await http.get('/readyz');
        if (ready.status === 503) expect(ready.body.help_center).toMatch(/^(loading|loaded)$/);
        return ready.status === 200;
      }, 'readyz 200');
      const articles = await http.get('/kb/articles').query({ limit: 100 });

      expect(ready!.body).toEqual({
        status: 'ready',
        help_center: 'loaded',
        ...(mode === 'postgres' ? { database: 'ok' } : {}),
      });
      expect(articles.body.articles).toHaveLength(20);
      await started;
    } finally {
      await service.close();
    }
  }, 30_000);
});

describe('readiness without a database', () => {
  test('when the mailbox is configured but unreachable, then /readyz answers 200 with its state: the mailbox is reported, not required', async () => {
    const service = serviceWith({
      mailbox: {
        imap: { url: 'imaps://user:secret@127.0.0.1:9/INBOX', timeoutMs: 500 },
        pollMs: 60_000,
        folders: { quarantine: 'Quarantine' },
      },
    });
    try {
      await service.start();
      await until(() => service.mailbox.status.state === 'disconnected', 'the reader gives up');
      expect((await request(service.app).get('/readyz').expect(200)).body).toEqual({
        status: 'ready',
        mailbox: 'disconnected',
      });
    } finally {
      await service.close();
    }
  });

  test('when neither KB_DIR nor a mailbox is set, then /readyz answers 200 with no check named', async () => {
    const service = serviceWith({});
    try {
      expect((await request(service.app).get('/readyz').expect(200)).body).toEqual({
        status: 'ready',
      });
    } finally {
      await service.close();
    }
  });
});

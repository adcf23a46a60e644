import { createLogger } from '@repo/http-kit';
import request from 'supertest';
import { createHelpdesk, type HelpdeskDatabase } from '../src/helpdesk.js';
import { SAMPLE_HELP_CENTER, waitFor } from './support/harness.js';
import { dropSchema, TEST_DATABASE_URL, testSchema } from './support/service-process.js';

// Issue 39: a service answers ready only once its help center folder is loaded.

const logger = createLogger({ name: 'helpdesk-test', level: 'silent' });
const stores: Array<[string, () => HelpdeskDatabase | undefined]> = [
  ['memory', () => undefined],
  [
    'PostgreSQL',
    () => ({ connectionString: TEST_DATABASE_URL, schema: testSchema('hd_ready'), poolMax: 3 }),
  ],
];

/** The service as server.ts wires it; no model call is made (nothing is asked). */
const helpdeskWith = (options: { database?: HelpdeskDatabase; dir?: string }) =>
  createHelpdesk({
    model: {
      apiKey: 'test-key',
      model: 'gemini-2.5-flash',
      baseUrl: 'http://127.0.0.1:9',
      timeoutMs: 1_000,
      maxRetries: 0,
    },
    logger,
    database: options.database,
    helpCenter: {
      ...(options.database ? { schema: options.database.schema } : {}),
      dir: options.dir,
    },
  });

describe.each(stores)('readiness (%s)', (store, databaseOf) => {
  const schemas: string[] = [];
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(schema);
  });

  it('when KB_DIR is set, then /readyz answers 503 help_center loading until the folder is loaded, then 200 with its articles there', async () => {
    const database = databaseOf();
    if (database) schemas.push(database.schema);
    const helpdesk = helpdeskWith({ database, dir: SAMPLE_HELP_CENTER });
    const http = request(helpdesk.app);
    try {
      const before = await http.get('/readyz');
      expect(before.status).toBe(503);
      expect(before.body).toMatchObject({ code: 'not_ready', help_center: 'loading' });

      const started = helpdesk.start();
      let ready: request.Response | undefined;
      await waitFor(
        async () => {
          ready = await http.get('/readyz');
          if (ready.status === 503) expect(ready.body.help_center).toMatch(/^(loading|loaded)$/);
          return ready.status === 200;
        },
        20_000,
        'readyz 200',
      );
      const articles = await http.get('/kb/articles').query({ limit: 100 });

      expect(ready!.body).toEqual({
        status: 'ready',
        help_center: 'loaded',
        ...(store === 'PostgreSQL' ? { database: 'ok' } : {}),
      });
      expect(articles.body.articles).toHaveLength(20);
      await started;
    } finally {
      await helpdesk.close();
    }
  }, 30_000);

  it('when KB_DIR is not set, then /readyz names no help center', async () => {
    const database = databaseOf();
    if (database) schemas.push(database.schema);
    const helpdesk = helpdeskWith({ database });
    try {
      await helpdesk.start();
      expect((await request(helpdesk.app).get('/readyz').expect(200)).body).toEqual({
        status: 'ready',
        ...(store === 'PostgreSQL' ? { database: 'ok' } : {}),
      });
    } finally {
      await helpdesk.close();
    }
  });
});

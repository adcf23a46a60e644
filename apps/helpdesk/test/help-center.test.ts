import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task } from '@a2a-js/sdk';
import { createLogger } from '@repo/http-kit';
import { clientFor, dataOf, message, textOf } from './support/a2a-client.js';
import type { HelpdeskDatabase } from '../src/helpdesk.js';
import {
  callerOf,
  functionResponsesIn,
  SAMPLE_HELP_CENTER,
  startHelpdesk,
  undocumentedResponsesSoFar,
  waitFor,
  type HelpdeskUnderTest,
} from './support/harness.js';
import { dropSchema, TEST_DATABASE_URL, testSchema } from './support/service-process.js';

const SHIPPING = 'How long does shipping take?';

type Passage = { slug: string; title: string; text: string };

/** The passages search_help_center returned to the specialist, as the model received them. */
const retrievedIn = (helpdesk: HelpdeskUnderTest): Passage[] =>
  helpdesk
    .modelCalls()
    .flatMap(functionResponsesIn)
    .filter((r) => r.name === 'search_help_center')
    .flatMap((r) => r.response['passages'] as Passage[]);

const stores: Array<[string, () => HelpdeskDatabase | undefined]> = [
  ['memory', () => undefined],
  [
    'PostgreSQL',
    () => ({ connectionString: TEST_DATABASE_URL, schema: testSchema('hd_kb'), poolMax: 3 }),
  ],
];

describe.each(stores)('the help center (%s)', (_store, database) => {
  let helpdesk: HelpdeskUnderTest;
  let empty: HelpdeskUnderTest;
  const schemas: string[] = [];

  beforeAll(async () => {
    const withArticles = database();
    const withNone = database();
    schemas.push(...[withArticles, withNone].flatMap((db) => (db ? [db.schema] : [])));
    helpdesk = await startHelpdesk({
      database: withArticles,
      helpCenter: { dir: SAMPLE_HELP_CENTER },
      metrics: { public: true },
    });
    empty = await startHelpdesk({ database: withNone });
  });
  afterAll(async () => {
    await helpdesk.close();
    await empty.close();
    for (const schema of schemas) await dropSchema(schema);
  });
  beforeEach(() => {
    helpdesk.emulator.requests.clear();
  });

  it('when a customer asks how long shipping takes, then the specialist reads the shipping article and the answer cites it', async () => {
    const res = await helpdesk.send('kb-shipping', SHIPPING).expect(200);

    expect(res.body.agent).toBe('technical');
    const shipping = retrievedIn(helpdesk).filter((p) => p.slug === 'shipping-times');
    expect(shipping.length).toBeGreaterThan(0);
    expect(shipping[0]!.title).toBe('Shipping times and costs');
    // The call after the search is the specialist's, with the article in its function response.
    const last = helpdesk.modelCalls().at(-1)!;
    expect(callerOf(last)).toBe('technical');
    expect(JSON.stringify(last.body)).toContain('shipping-times');
    expect(res.body.reply).toContain('[kb:shipping-times]');
    expect(res.body.sources).toEqual([
      {
        slug: 'shipping-times',
        title: 'Shipping times and costs',
        text: expect.stringContaining(shipping[0]!.text),
      },
    ]);
    const transcript = await helpdesk.http.get('/sessions/kb-shipping').expect(200);
    expect(transcript.body.turns[1].sources).toEqual(res.body.sources);
  });

  it('when an A2A client asks, then the completed task carries the citations as a data part', async () => {
    const client = await clientFor(await helpdesk.url());

    const task = (await client.sendMessage(message('What is your refund window?'))) as Task;

    const reply = task.status.message!;
    expect(textOf(reply.parts)).toContain('[kb:refund-policy]');
    expect(dataOf(reply.parts)).toContainEqual({
      citations: [expect.objectContaining({ slug: 'refund-policy', title: 'Refund policy' })],
    });
  });

  it('when the help center has nothing on the question, then the answer cites nothing and offers a ticket', async () => {
    const res = await empty.send('kb-none', SHIPPING).expect(200);

    expect(res.body.agent).toBe('technical');
    expect(empty.modelCalls().flatMap(functionResponsesIn)).toEqual([
      expect.objectContaining({
        name: 'search_help_center',
        response: expect.objectContaining({ passages: [] }),
      }),
    ]);
    expect(res.body.reply).toMatch(/I don't know/);
    expect(res.body.reply).toMatch(/open a ticket/);
    expect(res.body.reply).not.toContain('[kb:');
    expect(res.body).not.toHaveProperty('sources');
  });

  it('when an article is replaced through the API, then the next answer uses it; once deleted, it is never retrieved again', async () => {
    const put = await helpdesk.http
      .put('/kb/articles/shipping-times')
      .send({
        title: 'Shipping times',
        body: '# Shipping\n\nEvery order ships by zeppelin within 9 days.',
      })
      .expect(200);
    expect(put.body).toMatchObject({ outcome: 'replaced', article: { source: 'api' } });

    const replaced = await helpdesk.send('kb-replaced', SHIPPING).expect(200);
    expect(replaced.body.reply).toContain(
      'Every order ships by zeppelin within 9 days. [kb:shipping-times]',
    );

    await helpdesk.http.delete('/kb/articles/shipping-times').expect(204);
    helpdesk.emulator.requests.clear();
    const after = await helpdesk.send('kb-deleted', SHIPPING).expect(200);

    expect(retrievedIn(helpdesk).map((p) => p.slug)).not.toContain('shipping-times');
    expect(after.body.reply).not.toContain('[kb:shipping-times]');
    const search = await helpdesk.http
      .get('/kb/search')
      .query({ q: 'shipping zeppelin' })
      .expect(200);
    expect(search.body.hits.map((hit: { slug: string }) => hit.slug)).not.toContain(
      'shipping-times',
    );
    await helpdesk.http.get('/kb/articles/shipping-times').expect(404);
  });

  it('when the API is used, then articles list, search and refuse bad input as problem details', async () => {
    const list = await helpdesk.http.get('/kb/articles').query({ limit: 5 }).expect(200);
    expect(list.body.articles).toHaveLength(5);
    expect(list.body.next).toBe(list.body.articles[4].slug);
    expect(list.body.articles[0]).not.toHaveProperty('body');

    const refund = await helpdesk.http.get('/kb/search').query({ q: 'refund window' }).expect(200);
    expect(refund.body.hits[0].slug).toBe('refund-policy');

    const tooLong = await helpdesk.http
      .get('/kb/search')
      .query({ q: 'x'.repeat(501) })
      .expect(400);
    expect(tooLong.headers['content-type']).toMatch(/problem\+json/);
    const untitled = await helpdesk.http
      .put('/kb/articles/gift-cards')
      .send({ body: 'Valid 3 years.' });
    expect(untitled.status).toBe(400);
    const huge = await helpdesk.http
      .put('/kb/articles/huge')
      .send({ title: 'Huge', body: 'a'.repeat(70_000) });
    expect(huge.status).toBe(413);
    expect(huge.headers['content-type']).toMatch(/problem\+json/);
  });

  it('when the /kb routes answered, then every answer was documented in /openapi.json', async () => {
    expect(await undocumentedResponsesSoFar()).toEqual([]);
  });

  it('when an answer is grounded, then the metrics count it and the search latency', async () => {
    await helpdesk.send('kb-metrics', 'What is your refund window?').expect(200);

    const metrics = (await helpdesk.http.get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/^helpdesk_answers_total\{grounded="true"\} [1-9]/m);
    expect(metrics).toMatch(/^helpdesk_kb_search_seconds_count [1-9]/m);
    expect(metrics).toMatch(/^helpdesk_citations_removed_total 0$/m);
  });
});

describe('the help center on the openai wire', () => {
  it('when the agents run on an OpenAI-compatible model, then the shipping answer is grounded and cited too', async () => {
    const helpdesk = await startHelpdesk({
      provider: 'openai',
      helpCenter: { dir: SAMPLE_HELP_CENTER },
    });
    try {
      const res = await helpdesk.send('kb-openai', SHIPPING).expect(200);

      expect(res.body.agent).toBe('technical');
      expect(retrievedIn(helpdesk).map((p) => p.slug)).toContain('shipping-times');
      expect(res.body.reply).toContain('[kb:shipping-times]');
      expect(res.body.sources.map((s: { slug: string }) => s.slug)).toEqual(['shipping-times']);
    } finally {
      await helpdesk.close();
    }
  });
});

describe('a help center folder with a broken file', () => {
  let dir: string;
  let helpdesk: HelpdeskUnderTest | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'helpdesk-kb-'));
    cpSync(SAMPLE_HELP_CENTER, dir, { recursive: true });
  });
  afterEach(async () => {
    await helpdesk?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when KB_DIR holds a file that is not an article, then one log line names it and the others load', async () => {
    writeFileSync(join(dir, 'broken.md'), 'no front matter here');
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({
      name: 'helpdesk-test',
      destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
    });

    helpdesk = await startHelpdesk({ helpCenter: { dir }, logger });

    const naming = lines.filter((line) => JSON.stringify(line).includes('broken.md'));
    expect(naming).toEqual([
      expect.objectContaining({ level: 40, file: 'broken.md', msg: 'help center file skipped' }),
    ]);
    const articles = await helpdesk.http.get('/kb/articles').expect(200);
    expect(articles.body.articles).toHaveLength(20);
  });

  it('when a file is added to KB_DIR while the service runs, then the next search finds it', async () => {
    helpdesk = await startHelpdesk({ helpCenter: { dir } });
    writeFileSync(
      join(dir, 'gift-cards.md'),
      '---\ntitle: Gift cards\n---\n\nLumio gift cards are valid for three years.\n',
    );

    await waitFor(
      async () => (await helpdesk!.knowledge.get('gift-cards')) !== undefined,
      10_000,
      'the watcher to load gift-cards.md',
    );
    const search = await helpdesk.http.get('/kb/search').query({ q: 'gift cards' }).expect(200);
    expect(search.body.hits[0].slug).toBe('gift-cards');
  });
});

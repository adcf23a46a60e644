import { recordSchema } from '@repo/jest-preset/schema-ledger.mjs';
import pg from 'pg';
import { PostgresKnowledgeBase } from '../src/store/postgres-knowledge-base.js';
import { knowledgeTablesMigration } from '../src/store/knowledge-tables.js';
import { knowledgeBaseContract, loadSamples, ticking } from './knowledge-base-contract.js';
import { knowledgeSchema } from './postgres-support.js';

const DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

describe('PostgresKnowledgeBase', () => {
  let db: Awaited<ReturnType<typeof knowledgeSchema>>;

  beforeAll(async () => {
    db = await knowledgeSchema('knowledge');
  });

  afterAll(async () => {
    await db.drop();
  });

  const open = async (options = {}) => {
    await db.empty();
    return new PostgresKnowledgeBase({ pool: db.pool, schema: db.schema, ...options });
  };

  knowledgeBaseContract(open);

  /** knowledge_lexemes' counts, and the counts of the stored passages, as `lexeme config count`. */
  const storedCounts = async () =>
    (
      await db.pool.query<{ row: string }>(
        `SELECT concat_ws(' ', lexeme, config, passages) AS row
          FROM "${db.schema}".knowledge_lexemes WHERE passages > 0 ORDER BY 1`,
      )
    ).rows.map((r) => r.row);
  const passageCounts = async () =>
    (
      await db.pool.query<{ row: string }>(
        `SELECT concat_ws(' ', w.lexeme, p.config, count(*)) AS row
          FROM "${db.schema}".knowledge_passages AS p CROSS JOIN unnest(p.tsv) AS w
          GROUP BY w.lexeme, p.config ORDER BY 1`,
      )
    ).rows.map((r) => r.row);

  it('when articles are stored, then each passage is indexed in its language’s configuration, simple for an unknown one', async () => {
    const kb = await open();
    await loadSamples(kb);
    await kb.upsert({ slug: 'tlhingan', title: 'Tlhingan', language: 'tlh', body: 'nuqneH' });
    const { rows } = await db.pool.query<{ slug: string; config: string }>(
      `SELECT DISTINCT slug, config::text AS config FROM "${db.schema}".knowledge_passages
        WHERE slug IN ('refund-policy', 'rueckerstattung', 'delais-de-livraison', 'tlhingan')
        ORDER BY slug`,
    );
    expect(rows).toEqual([
      { slug: 'delais-de-livraison', config: 'french' },
      { slug: 'refund-policy', config: 'english' },
      { slug: 'rueckerstattung', config: 'german' },
      { slug: 'tlhingan', config: 'simple' },
    ]);
    expect((await kb.search('nuqneH'))[0]?.slug).toBe('tlhingan');
  });

  it('when an article is cut into passages, then they are rows of their own and search returns the matching one', async () => {
    const kb = await open();
    await loadSamples(kb);
    const { rows } = await db.pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM "${db.schema}".knowledge_passages WHERE slug = 'refund-policy'`,
    );
    expect(rows[0]!.count).toBeGreaterThan(3);
    const [hit] = await kb.search('when does my bank show the refund money?');
    expect(hit).toMatchObject({ slug: 'refund-policy', heading: 'When the money arrives' });
  });

  it('when some passages hold every word of the query, then only those come back', async () => {
    const kb = await open();
    await kb.upsert({
      slug: 'gift-cards',
      title: 'Gift cards',
      body: 'Gift cards expire after 3 years.',
    });
    await kb.upsert({ slug: 'gift-wrap', title: 'Gift wrap', body: 'Gift wrap is free.' });
    expect((await kb.search('gift cards')).map((hit) => hit.slug)).toEqual(['gift-cards']);
    expect((await kb.search('gift')).map((hit) => hit.slug).sort()).toEqual([
      'gift-cards',
      'gift-wrap',
    ]);
  });

  it('when a query word is in most passages of a large knowledge base, then only passages with its rarer words come back', async () => {
    const kb = await open();
    for (let i = 0; i < 600; i += 1)
      await kb.upsert({ slug: `note-${i}`, title: `Note ${i}`, body: `Acme gadget number ${i}.` });
    await kb.upsert({ slug: 'refunds', title: 'Refunds', body: 'Acme refunds within 30 days.' });

    // No passage holds "warranty": the any-word search, without the 601 passages holding "acme".
    const hits = await kb.search('acme refunds warranty');

    expect(hits.map((hit) => hit.slug)).toEqual(['refunds']);
    // With no rarer word that a passage holds, the common word is searched.
    expect(await kb.search('acme zeppelin', { limit: 3 })).toHaveLength(3);
  });

  it('when passages hold two of the query’s words but none all, then those come back, not those holding one', async () => {
    const kb = await open();
    await kb.upsert({ slug: 'parcel-lockers', title: 'Parcel lockers', body: 'Pick up a parcel.' });
    await kb.upsert({ slug: 'lockers', title: 'Lockers', body: 'Lockers open with a code.' });
    await kb.upsert({ slug: 'weekends', title: 'Weekends', body: 'Closed on weekends.' });

    const hits = await kb.search('parcel lockers on weekends?');

    expect(hits.map((hit) => hit.slug)).toEqual(['parcel-lockers']);
  });

  it('when a passage holds the query’s two rarest words together, then it comes before passages holding commoner pairs, even when ts_rank ranks those higher', async () => {
    const kb = await open();
    await kb.upsert({ slug: 'apples', title: 'Fruit', body: 'Apples and oranges.' });
    await kb.upsert({ slug: 'pears', title: 'Oranges and pears', body: 'Pears and oranges.' });
    await kb.upsert({ slug: 'more-pears', title: 'Fruit', body: 'Pears.' });
    await kb.upsert({ slug: 'even-more-pears', title: 'Fruit', body: 'Pears.' });

    const hits = await kb.search('apple orange pear', { limit: 1 });

    expect(hits.map((hit) => hit.slug)).toEqual(['apples']);
  });

  it('when fewer passages than asked hold the rarest words of an email together, then passages holding two of its words fill the answer, ranked with them', async () => {
    const kb = await open();
    await loadSamples(kb);

    const hits = await kb.search(
      'My order arrived broken, can I return it and get my money back?',
      {
        limit: 5,
      },
    );

    expect(hits).toHaveLength(5);
    expect(hits[0]).toMatchObject({ slug: 'refund-policy' });
    expect(hits.map((hit) => hit.slug)).toContain('warranty-and-repairs');
    for (let i = 1; i < hits.length; i += 1)
      expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
  });

  it('when articles are created, replaced and deleted, then each lexeme counts the passages holding it', async () => {
    const kb = await open();
    await loadSamples(kb);
    await kb.upsert({ slug: 'refund-policy', title: 'Refunds', body: 'Refunds take 60 days.' });
    await kb.upsert({ slug: 'opening-hours', title: 'Horaires', language: 'fr', body: 'Ouvert.' });
    await kb.delete('shipping-times');

    expect(await storedCounts()).toEqual(await passageCounts());
  });

  it('when the tables were made before lexemes were counted, then set-up counts them', async () => {
    const kb = await open();
    await loadSamples(kb);
    await db.pool.query(`DROP TABLE "${db.schema}".knowledge_lexemes`);

    await db.pool.query(knowledgeTablesMigration(db.schema));

    expect(await storedCounts()).toEqual(await passageCounts());
    expect((await kb.search('what is your refund window? ref 1234'))[0]?.slug).toBe(
      'refund-policy',
    );
  });

  it('when the GIN index was made with a pending list, then set-up turns it off', async () => {
    await db.pool.query(`ALTER INDEX "${db.schema}".knowledge_passages_tsv SET (fastupdate = on)`);

    await db.pool.query(knowledgeTablesMigration(db.schema));

    const { rows } = await db.pool.query<{ reloptions: string[] }>(
      `SELECT reloptions FROM pg_class WHERE oid = '"${db.schema}".knowledge_passages_tsv'::regclass`,
    );
    expect(rows[0]!.reloptions).toEqual(['fastupdate=off']);
  });

  it('when a language is first written, then the planner knows how few configurations there are', async () => {
    const kb = await open();
    await db.pool.query(`TRUNCATE "${db.schema}".knowledge_configs`);
    await kb.upsert({ slug: 'hallo', title: 'Hallo', language: 'de', body: 'Willkommen.' });
    // Never analyzed (-1), a search was planned for thousands of configurations and JIT-compiled.
    const { rows } = await db.pool.query<{ reltuples: number }>(
      `SELECT reltuples FROM pg_class WHERE oid = '"${db.schema}".knowledge_configs'::regclass`,
    );
    expect(rows[0]!.reltuples).toBeGreaterThanOrEqual(1);
  });

  it('when unchanged content is upserted again, then its rows are not rewritten', async () => {
    const kb = await open({ now: ticking() });
    await loadSamples(kb);
    const versions = () =>
      db.pool.query<{ xmin: string }>(
        `SELECT xmin::text FROM "${db.schema}".knowledge_articles
         UNION ALL SELECT xmin::text FROM "${db.schema}".knowledge_passages`,
      );
    const before = (await versions()).rows;
    await loadSamples(kb);
    expect((await versions()).rows).toEqual(before);
  });

  it('when two instances add articles at once past the limit, then the limit holds', async () => {
    await open();
    const instances = [0, 1].map(
      () =>
        new PostgresKnowledgeBase({ pool: db.pool, schema: db.schema, limits: { maxArticles: 3 } }),
    );
    const results = await Promise.allSettled(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((slug, i) =>
        instances[i % 2]!.upsert({ slug, title: slug, body: 'Text.' }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(results.filter((r) => r.status === 'rejected').map((r) => r.reason.code)).toEqual([
      'too_many_articles',
      'too_many_articles',
      'too_many_articles',
    ]);
    expect((await instances[0]!.list({ limit: 10 })).articles).toHaveLength(3);
  });

  it('when the tables are set up again, then nothing changes', async () => {
    const kb = await open();
    await kb.upsert({ slug: 'kept', title: 'Kept', body: 'Still here.' });
    await db.pool.query(knowledgeTablesMigration(db.schema));
    expect((await kb.get('kept'))?.body).toBe('Still here.');
  });

  it('when two services set up one shared schema at once, then every set-up succeeds', async () => {
    const shared = `kb_shared_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    recordSchema(shared);
    // Separate connections, as two services' set-ups under their own locks are.
    const clients = Array.from(
      { length: 6 },
      () => new pg.Client({ connectionString: DATABASE_URL }),
    );
    await Promise.all(clients.map((client) => client.connect()));
    try {
      const results = await Promise.allSettled(
        clients.map((client) => client.query(knowledgeTablesMigration(shared))),
      );
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    } finally {
      await Promise.all(clients.map((client) => client.end()));
      await db.pool.query(`DROP SCHEMA IF EXISTS "${shared}" CASCADE`);
    }
  });
});

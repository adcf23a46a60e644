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

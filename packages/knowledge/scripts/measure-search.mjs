// Search latency at 10,000 articles, in both stores: node scripts/measure-search.mjs after a build.
// DATABASE_URL (default: the test database) is where a scratch schema is made and dropped;
// STORES=memory or STORES=postgres measures one; SCHEMA=<a schema KEEP_SCHEMA kept> measures
// PostgreSQL again without loading (its tables set up again first, as a service's start does).
// The 20 samples are among the articles; the others are made up (see `word`).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import {
  knowledgeTablesMigration,
  MemoryKnowledgeBase,
  parseArticleFile,
  PostgresKnowledgeBase,
} from '../dist/index.js';

const ARTICLES = Number(process.env.ARTICLES ?? 10_000);
const ROUNDS = Number(process.env.ROUNDS ?? 10);
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const QUESTIONS = [
  'what is your refund window?',
  'how long does shipping take to the United States?',
  'how do I reset my password',
  'where can I download my invoices',
  'cancel my subscription',
  'API rate limit 429',
  'is there a discount for schools',
  'when is support open on Saturday',
  'export my data as CSV',
  'the app does not find the hub',
  'how much does the Business plan cost',
  'two-factor authentication lost phone',
  'warranty claim flickering bulb',
  'delete my account',
  'escalate a complaint',
  'payment failed',
  'Rücksendung Etikett',
  'livraison express',
  'status page maintenance',
  'invite staff roles',
];

// Emails as bench scenario 11 drafts for (bench/src/drivers/email-driver.ts, with its ref tag): no
// passage holds all their words, so they take the any-word search.
const DRAFTS = [
  'Hello, I was charged twice for my subscription this month (invoice INV-1001). Could you refund the extra payment?',
  'Your API has been returning 502 errors since this morning and our checkout is down. Please fix this urgently.',
  'Thanks a lot for the quick help last week, the new dashboard is great. Do you offer an annual plan?',
  'I want to upgrade to the enterprise plan for 40 seats. Can you send me a quote?',
].map((text, i) => `${text}\n\nRef: benchelevenonrone${'abcd'[i]}`);

const sampleDir = join(import.meta.dirname, '..', 'sample-help-center');
const samples = readdirSync(sampleDir).map((name) =>
  parseArticleFile(readFileSync(join(sampleDir, name), 'utf8'), name),
);
const words = [...new Set(samples.flatMap((a) => a.body.toLowerCase().match(/[a-z]{3,}/g) ?? []))];

let seed = 42;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
// Half the words from the samples (the common ones more often), half from 30,000 made-up terms
// (product names, places, codes) drawn by Zipf's law, as a real help center's long tail.
const rare = Array.from({ length: 30_000 }, (_, i) => `term${i.toString(36)}`);
const harmonic = rare.reduce((sum, _, i) => sum + 1 / (i + 1), 0);
const zipf = () => {
  let left = random() * harmonic;
  for (let i = 0; i < rare.length; i += 1) if ((left -= 1 / (i + 1)) <= 0) return rare[i];
  return rare[rare.length - 1];
};
const word = () => (random() < 0.5 ? words[Math.floor(words.length * random() ** 2.5)] : zipf());
const sentence = () => {
  const text = Array.from({ length: 8 + Math.floor(random() * 10) }, word).join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
};
const paragraph = () => Array.from({ length: 2 + Math.floor(random() * 3) }, sentence).join(' ');
const generated = (i) => ({
  slug: `article-${i}`,
  title: Array.from({ length: 4 }, word).join(' '),
  body: [1, 2, 3]
    .map(
      () => `## ${Array.from({ length: 3 }, word).join(' ')}\n\n${paragraph()}\n\n${paragraph()}`,
    )
    .join('\n\n'),
  language: 'en',
  tags: [word()],
});

async function load(kb) {
  const started = performance.now();
  for (const sample of samples) await kb.upsert(sample);
  for (let i = samples.length; i < ARTICLES; i += 1) await kb.upsert(generated(i));
  return (performance.now() - started) / 1000;
}

async function measure(name, kb, queries, check) {
  for (const query of queries) await kb.search(query); // warm up
  const times = [];
  const byQuery = new Map(queries.map((query) => [query, []]));
  let expected = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const query of queries) {
      const start = performance.now();
      const hits = await kb.search(query, { limit: 5 });
      times.push(performance.now() - start);
      byQuery.get(query).push(times.at(-1));
      if (check?.(query, hits)) expected += 1;
    }
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  console.log(
    `${name}: ${times.length} searches: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms` +
      (check ? `; refund article first ${expected}/${ROUNDS}` : ''),
  );
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const slowest = [...byQuery].sort(([, a], [, b]) => median(b) - median(a)).slice(0, 3);
  for (const [query, list] of slowest)
    console.log(`  slowest: ${median(list).toFixed(2)} ms "${query.split('\n')[0].slice(0, 60)}"`);
}

async function measureBoth(name, kb) {
  const refundFirst = (query, hits) => query === QUESTIONS[0] && hits[0]?.slug === 'refund-policy';
  await measure(`${name} questions`, kb, QUESTIONS, refundFirst);
  await measure(`${name} drafts`, kb, DRAFTS);
  // What each draft is given, to compare the stores.
  for (const draft of DRAFTS) {
    const hits = await kb.search(draft, { limit: 5 });
    console.log(`  draft "${draft.slice(0, 40)}…": ${hits.map((hit) => hit.slug).join(' ')}`);
  }
}

const limits = { maxArticles: ARTICLES };
const stores = (process.env.STORES ?? 'memory,postgres').split(',');
console.log(`load averages ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
if (stores.includes('memory')) {
  const kb = new MemoryKnowledgeBase({ limits });
  console.log(`memory: ${ARTICLES} articles loaded in ${(await load(kb)).toFixed(1)} s`);
  await measureBoth('memory', kb);
}
if (!stores.includes('postgres')) process.exit(0);

const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
const schema = process.env.SCHEMA ?? `knowledge_measure_${process.pid}`;
const keep = process.env.KEEP_SCHEMA || process.env.SCHEMA;
try {
  if (!process.env.SCHEMA) await pool.query(`CREATE SCHEMA "${schema}"`);
  await pool.query(knowledgeTablesMigration(schema));
  const kb = new PostgresKnowledgeBase({ pool, schema, limits });
  if (!process.env.SCHEMA) {
    console.log(`postgres: ${ARTICLES} articles loaded in ${(await load(kb)).toFixed(1)} s`);
    // Statistics as autovacuum would have them on a table that size.
    await pool.query(`ANALYZE "${schema}".knowledge_articles, "${schema}".knowledge_passages`);
  }
  await measureBoth('postgres', kb);
  if (keep) console.log(`schema ${schema} kept`);
} finally {
  if (!keep) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
}
console.log(`load averages ${readFileSync('/proc/loadavg', 'utf8').trim()}`);

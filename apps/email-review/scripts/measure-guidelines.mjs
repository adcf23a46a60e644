// Issue 40's numbers: what choosing a draft's guidelines among 5,000 costs, and what an approval's
// learning writes (the quality record, the derivation job) add to its transaction. Run after a build:
//   node apps/email-review/scripts/measure-guidelines.mjs   (TEST_DATABASE_URL or the local test database)
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createLogger } from '@repo/http-kit';
import { withTransaction } from '@repo/pg-kit';
import pg from 'pg';
import { GUIDELINES_PER_DRAFT } from '../dist/guidelines/draft-guidelines.js';
import { scopesFor } from '../dist/guidelines/guideline.js';
import { queuedDerivation } from '../dist/guidelines/guideline-derivation.js';
import { MemoryGuidelines } from '../dist/guidelines/memory-guidelines.js';
import {
  guidelineTablesMigration,
  PostgresGuidelines,
} from '../dist/guidelines/postgres-guidelines.js';
import { JobRunner } from '../dist/jobs/job-runner.js';
import {
  PostgresQualityLedger,
  qualityTablesMigration,
} from '../dist/quality/postgres-quality-ledger.js';
import { queueSchema } from '../dist/db/tables.js';

const URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DOMAINS = 1_000;
const CATEGORIES = ['billing', 'technical_support', 'account', 'sales', 'other'];
const RUNS = 2_000;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const report = (label, times) =>
  console.log(
    `${label}: p50 ${percentile(times, 50).toFixed(3)} ms, p95 ${percentile(times, 95).toFixed(3)} ms (${times.length} runs)`,
  );

/** 5,000 guidelines: 4 per domain over 1,000 domains, 500 for senders, 400 by category, 100 global. */
function* population() {
  let n = 0;
  for (let d = 0; d < DOMAINS; d += 1)
    for (let i = 0; i < 4; i += 1)
      yield {
        scope: { kind: 'domain', value: `d${d}.test` },
        rule: `Domain rule ${n++} ${randomBytes(6).toString('hex')}`,
      };
  for (let s = 0; s < 500; s += 1)
    yield {
      scope: { kind: 'sender', value: `u${s}@d${s}.test` },
      rule: `Sender rule ${n++} ${randomBytes(6).toString('hex')}`,
    };
  for (let c = 0; c < 400; c += 1)
    yield {
      scope: { kind: 'category', value: CATEGORIES[c % CATEGORIES.length] },
      rule: `Category rule ${n++} ${randomBytes(6).toString('hex')}`,
    };
  for (let g = 0; g < 100; g += 1)
    yield {
      scope: { kind: 'global', value: null },
      rule: `Global rule ${n++} ${randomBytes(6).toString('hex')}`,
    };
}

const source = (i) => ({
  thread_id: `t${i}`,
  revision: 1,
  actor: 'bench',
  at: new Date().toISOString(),
  kind: 'edited',
});

async function timeChoosing(store) {
  const times = [];
  for (let i = 0; i < RUNS; i += 1) {
    const from = `u${i % 500}@d${i % DOMAINS}.test`;
    const started = performance.now();
    await store.forDraft(scopesFor(from, CATEGORIES[i % CATEGORIES.length]), GUIDELINES_PER_DRAFT);
    times.push(performance.now() - started);
  }
  return times;
}

const memory = new MemoryGuidelines();
let i = 0;
for (const learned of population())
  await memory.learn(`job-${i}`, [learned], source(i++), new Date().toISOString());
report(
  `memory: choosing a draft's guidelines among ${(await memory.list({})).length}`,
  await timeChoosing(memory),
);

const schema = `bench_guidelines_${randomBytes(4).toString('hex')}`;
const pool = new pg.Pool({ connectionString: URL, max: 4 });
const logger = createLogger({ name: 'measure', level: 'silent' });
const jobs = new JobRunner({
  connectionString: URL,
  schema,
  max: 2,
  maintenanceIntervalSeconds: 60,
  logger,
});
try {
  await pool.query(`CREATE SCHEMA "${schema}"`);
  await pool.query(guidelineTablesMigration(schema));
  await pool.query(qualityTablesMigration(schema));
  const store = new PostgresGuidelines(pool, schema);
  const rows = [...population()];
  await pool.query(
    `INSERT INTO "${schema}".email_guidelines (id, scope_kind, scope_value, rule, sources, created_at, updated_at)
     SELECT 'g' || n, kind, value, rule, '[{"thread_id":"t","revision":1,"actor":"bench","at":"2030-01-01T00:00:00Z","kind":"edited"}]'::jsonb, now(), now()
     FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS r(kind, value, rule, n)`,
    [rows.map((r) => r.scope.kind), rows.map((r) => r.scope.value ?? ''), rows.map((r) => r.rule)],
  );
  await pool.query(`ANALYZE "${schema}".email_guidelines`);
  await timeChoosing(store); // warm-up: connections, plans
  report(`postgres: choosing a draft's guidelines among ${rows.length}`, await timeChoosing(store));

  // The approval's learning writes, inside a transaction, against the same transaction empty.
  await jobs.start(pool);
  const ledger = new PostgresQualityLedger(pool, schema);
  const derivation = queuedDerivation(jobs, async () => {}, 120);
  const empty = [];
  const recordOnly = [];
  const learning = [];
  const decision = (n) => ({
    thread_id: `t${n}`,
    outcome: 'approved',
    decided_at: new Date().toISOString(),
    edited: true,
    edit_distance: 0.1,
    decision_ms: 1000,
    category: 'billing',
    model: 'm',
    pipeline_version: 'p',
    reason: null,
    note: null,
  });
  for (let n = 0; n < 1_000; n += 1) {
    let started = performance.now();
    await withTransaction(pool, async () => {});
    empty.push(performance.now() - started);
    started = performance.now();
    await withTransaction(pool, (client) => ledger.record({ client }, decision(`u${n}`)));
    recordOnly.push(performance.now() - started);
    started = performance.now();
    await withTransaction(pool, async (client) => {
      const tx = { client, checkpointer: undefined };
      await ledger.record(tx, decision(n));
      await derivation.send(
        {
          thread_id: `t${n}`,
          revision: 2,
          actor: 'bench',
          at: new Date().toISOString(),
          from: 'a@b.test',
          category: 'billing',
          draft: 'Hi',
          approved: 'Dear',
        },
        tx,
      );
    });
    learning.push(performance.now() - started);
  }
  report('postgres: an empty transaction', empty);
  report("postgres: a transaction with an unedited approval's quality record", recordOnly);
  report("postgres: a transaction with the approval's quality record and derivation job", learning);
} finally {
  await jobs.stop();
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.query(`DROP SCHEMA IF EXISTS "${queueSchema(schema)}" CASCADE`);
  await pool.end();
}

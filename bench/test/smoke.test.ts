import { mkdtemp, readFile, rm } from 'node:fs/promises';
import pg from 'pg';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { BenchDatabase } from '../src/db/bench-database.js';
import { runBench, type BenchOutcome } from '../src/run-bench.js';

const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * The whole harness at tiny counts, so it never rots: every scenario runs against the real services
 * and the real peers, and the report comes out with all its tables. No timing is asserted.
 */
describe('bench smoke run', () => {
  let dir: string;
  let ran: BenchOutcome | undefined;
  let markdown = '';
  /** The run's outcome; a test fails (never passes empty) when the run did not happen. */
  const outcomeOf = (): BenchOutcome => {
    if (!ran) throw new Error('the smoke run did not complete (see beforeAll)');
    return ran;
  };

  beforeAll(async () => {
    // The bench needs PostgreSQL (scenarios 1, 4, 6, 10): without it the run cannot pass.
    if (!(await BenchDatabase.reachable(databaseUrl))) {
      throw new Error(`the bench smoke run needs PostgreSQL at ${databaseUrl}`);
    }
    dir = await mkdtemp(join(tmpdir(), 'bench-smoke-'));
    const outFile = join(dir, 'latest.md');
    const config = loadConfig(['--scale', 'smoke', '--out', outFile], {
      TEST_DATABASE_URL: databaseUrl,
    });
    ran = await runBench(config, 'jest bench smoke');
    markdown = await readFile(outFile, 'utf8');
  }, 480_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('when the smoke run finishes, then no scenario failed', () => {
    const outcome = outcomeOf();
    expect(outcome.failed).toEqual([]);
  });

  it('when the report is written, then it has the machine facts and a section for each scenario', () => {
    const outcome = outcomeOf();
    expect(markdown).toMatch(/\| node \| v\d+/);
    expect(markdown).toMatch(/\| cores \| \d+ ×/);
    for (const id of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
      expect(markdown).toContain(`\n## ${id}. `);
    expect(outcome.sections.map((s) => s.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('when a scenario reports, then each of its tables is in the file with numeric cells (n/a only for a peer)', () => {
    const outcome = outcomeOf();
    for (const section of outcome.sections) {
      expect(section.tables.length).toBeGreaterThan(0);
      expect(section.targets.length).toBeGreaterThan(0);
      for (const table of section.tables) {
        expect(markdown).toContain(`**${table.title}**`);
        expect(table.rows.length).toBeGreaterThan(0);
        for (const row of table.rows) {
          row.slice(1).forEach((cell, i) => {
            const column = table.columns[i + 1] ?? '';
            if (cell === 'n/a') expect(column.startsWith('project')).toBe(false);
            else expect(Number.isFinite(cell)).toBe(true);
          });
        }
      }
    }
  });

  it('when scenarios 1 and 2 ran, then the chart is written beside the report and linked at its top', async () => {
    const outcome = outcomeOf();
    expect(outcome.chartFile).toBe(join(dir, 'latest-throughput.svg'));
    const svg = await readFile(outcome.chartFile ?? '', 'utf8');
    expect(svg.match(/class="series"/g)).toHaveLength(5);
    expect(markdown.split('\n## ')[0]).toContain('](latest-throughput.svg)');
  });

  it('when a target is missed, then the report says by how much', () => {
    const outcome = outcomeOf();
    for (const target of outcome.sections.flatMap((s) => s.targets)) {
      if (!target.met) expect(target.shortfall).toBeTruthy();
    }
  });

  it("when the smoke run ends, then none of its schemas is left in the database (email-review's `_pgboss` ones included)", async () => {
    const outcome = outcomeOf();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ nspname: string }>(
        'SELECT nspname FROM pg_namespace WHERE nspname LIKE $1',
        [`bench\\_${outcome.runTag.toLowerCase()}\\_%`],
      );
      expect(rows.map((row) => row.nspname)).toEqual([]);
    } finally {
      await client.end();
    }
  });
});

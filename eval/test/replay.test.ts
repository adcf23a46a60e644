import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closingLine, runSuite } from './support/run-suite.js';
import { scratchDir } from './support/scratch.js';

const CASES = 'double-charge,spam-watches,invoice-open,manager,billing-then-status';

const SUITE_TIMEOUT_MS = 120_000;

describe('record and replay', () => {
  const dir = scratchDir('eval-cassettes-');
  const env = { EVAL_CASSETTES_DIR: dir, EVAL_CASSETTE: 'test', EVAL_CASES: CASES };

  it(
    'when a recording is replayed with no provider at all, then the report equals the recorded one',
    async () => {
      // EVAL_RECORD refuses a part of the suite, so record it whole, then replay a part of it.
      const recorded = await runSuite({
        EVAL_CASSETTES_DIR: dir,
        EVAL_CASSETTE: 'test',
        EVAL_RECORD: '1',
      });
      expect(recorded.code).toBe(0);
      const replayed = await runSuite({
        EVAL_CASSETTES_DIR: dir,
        EVAL_CASSETTE: 'test',
        EVAL_REPLAY: '1',
      });
      expect(replayed.stdout).toMatch(/\| replay\.reproduces_recording +\| 1\.000 .*\| pass /);
      expect(replayed.stdout).toMatch(/\| replay\.requests_missing +\| 0 /);
      expect(closingLine(replayed.stdout)).toMatch(/^\d+ passed, 0 failed$/);
      expect(replayed.code).toBe(0);
    },
    SUITE_TIMEOUT_MS,
  );

  it(
    'when the cassette lacks a request, then the replay names the case and exits non-zero',
    async () => {
      const file = join(dir, 'test', 'gemini.jsonl');
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      writeFileSync(file, `${lines.filter((line) => !line.includes('INV-1001')).join('\n')}\n`);
      const replayed = await runSuite({ ...env, EVAL_REPLAY: '1' });
      expect(replayed.stdout).toMatch(
        /problem: replay: case chat:invoice-open made \d+ request\(s\) the cassette does not have/,
      );
      expect(replayed.code).toBe(1);
    },
    SUITE_TIMEOUT_MS,
  );
  it(
    "when the cassette lacks an email's draft request, then that case counts as failed, not as a thread",
    async () => {
      const file = join(dir, 'test', 'openai.jsonl');
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      writeFileSync(file, `${lines.filter((line) => !line.includes('INV-2231')).join('\n')}\n`);
      const replayed = await runSuite({ ...env, EVAL_REPLAY: '1' });
      expect(replayed.stdout).toMatch(/problem: replay: case email:double-charge made/);
      expect(replayed.stdout).toMatch(/\| email\.failed_cases +\| 1 +\|.*\| fail /);
      expect(replayed.code).toBe(1);
    },
    SUITE_TIMEOUT_MS,
  );
});

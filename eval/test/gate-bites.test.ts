import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closingLine, runSuite } from './support/run-suite.js';
import { scratchDir } from './support/scratch.js';

/** The default categories but billing: a classifier that can no longer say billing. */
const PROFILE_WITHOUT_BILLING = `categories:
${['technical_support', 'account', 'sales', 'complaint', 'feedback', 'spam', 'other'].map((name) => `  - name: ${name}`).join('\n')}
`;

/** The help center cases: what an emptied knowledge base must break. */
const KB_CASES = 'refund-window,shipping-times,api-status,invoice-open,manager,refund-then-invoice';

const SUITE_TIMEOUT_MS = 120_000;

describe('the gate bites (sabotage)', () => {
  it(
    'when the chat cases run on the sample help center, then the gate passes (the control)',
    async () => {
      const run = await runSuite({ EVAL_ONLY: 'chat', EVAL_CASES: KB_CASES });
      expect(closingLine(run.stdout)).toMatch(/^\d+ passed, 0 failed$/);
      expect(run.code).toBe(0);
    },
    SUITE_TIMEOUT_MS,
  );

  it(
    'when the knowledge base is emptied, then citation recall drops below its threshold and the run exits non-zero',
    async () => {
      const run = await runSuite({
        EVAL_ONLY: 'chat',
        EVAL_CASES: KB_CASES,
        EVAL_KB_DIR: scratchDir('eval-empty-kb-'),
      });
      expect(run.stdout).toMatch(/\| chat\.citation_recall +\| 0\.000 +\|.*\| fail /);
      expect(closingLine(run.stdout)).toMatch(/^\d+ passed, [1-9]\d* failed$/);
      expect(run.code).toBe(1);
    },
    SUITE_TIMEOUT_MS,
  );

  it(
    'when the classifier is given a profile without the billing category, then category accuracy drops below its threshold and the run exits non-zero',
    async () => {
      const profile = join(scratchDir('eval-profile-'), 'profile.yaml');
      writeFileSync(profile, PROFILE_WITHOUT_BILLING);
      const control = await runSuite({ EVAL_ONLY: 'email' });
      expect(control.stdout).toMatch(/\| email\.category_accuracy +\| [\d.]+ .*\| pass /);
      const run = await runSuite({ EVAL_ONLY: 'email', EVAL_SUPPORT_PROFILE_FILE: profile });
      expect(run.stdout).toMatch(/\| email\.category_accuracy +\| [\d.]+ .*\| fail /);
      expect(closingLine(run.stdout)).toMatch(/^\d+ passed, [1-9]\d* failed$/);
      expect(run.code).toBe(1);
    },
    SUITE_TIMEOUT_MS,
  );
});

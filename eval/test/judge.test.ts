import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { judgeReply } from '../src/judge.js';
import { runSuite } from './support/run-suite.js';

const SUITE_TIMEOUT_MS = 120_000;

describe('judges', () => {
  let judge: Emulator;

  beforeAll(async () => {
    // The emulator stands in for a judge model here: it answers the verdict's JSON schema, so the wiring is tested, not a grade.
    judge = await startEmulator({ port: 0, latencyMs: 0 });
  });
  afterAll(async () => {
    await judge?.close();
  });

  it('when a judge answers the verdict schema, then its scores come back between 0 and 1', async () => {
    const scores = await judgeReply(
      { url: `${judge.url}/v1`, apiKey: 'k', model: 'judge' },
      {
        question: 'What is your refund window?',
        reply: '30 days. [kb:refund-policy]',
        sources: 'Refunds within 30 days.',
      },
    );
    expect(scores).not.toBeNull();
    for (const value of Object.values(scores!)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
    }
  });

  it(
    'when EVAL_JUDGE_URL is unset, then the judge metrics are reported as not measured; when set, measured',
    async () => {
      const cases = { EVAL_ONLY: 'chat', EVAL_CASES: 'refund-window,api-status' };
      const without = await runSuite(cases);
      expect(without.stdout).toMatch(
        /\| chat\.judge_rubric +\| not measured .*no judge: set EVAL_JUDGE_URL/,
      );
      const withJudge = await runSuite({
        ...cases,
        EVAL_JUDGE_URL: `${judge.url}/v1`,
        EVAL_JUDGE_API_KEY: 'k',
      });
      expect(withJudge.stdout).toMatch(/\| chat\.judge_rubric +\| [01]\.\d{3} +\| 2 /);
      expect(withJudge.stdout).toMatch(/\| chat\.judge_faithfulness +\| [01]\.\d{3} +\| 2 /);
    },
    SUITE_TIMEOUT_MS,
  );
});

import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { closingLine, runSuite } from './support/run-suite.js';

const SUITE_TIMEOUT_MS = 120_000;
const CASES = 'double-charge,invoice-open,refund-window';

describe('a provider given by base URL (how a real model is reached)', () => {
  let provider: Emulator;

  beforeAll(async () => {
    // An emulator the suite did not start stands in for the provider's endpoint.
    provider = await startEmulator({ port: 0, latencyMs: 0 });
  });
  afterAll(async () => {
    await provider?.close();
  });

  it.each(['gemini', 'openai'])(
    'when EVAL_*_BASE_URL and keys are given (helpdesk on %s), then every request goes there and the run is labelled real',
    async (helpdeskProvider) => {
      provider.requests.clear();
      const run = await runSuite({
        EVAL_CASES: CASES,
        EVAL_HELPDESK_PROVIDER: helpdeskProvider,
        EVAL_OPENAI_BASE_URL: `${provider.url}/v1`,
        EVAL_OPENAI_API_KEY: 'sk-eval-test',
        EVAL_GEMINI_BASE_URL: provider.url,
        EVAL_GEMINI_API_KEY: 'gemini-eval-test',
      });
      expect(run.stdout).toMatch(/pipeline [0-9a-f]{12} \(real\)/);
      expect(closingLine(run.stdout)).toMatch(/^\d+ passed, 0 failed$/);
      const providers = new Set(provider.requests.list().map((request) => request.provider));
      expect(providers).toEqual(
        new Set(helpdeskProvider === 'gemini' ? ['openai', 'gemini'] : ['openai']),
      );
    },
    SUITE_TIMEOUT_MS,
  );
});

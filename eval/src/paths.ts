import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** eval/src (or eval/dist) → eval/ and the monorepo root, wherever the suite is started from. */
const here = dirname(fileURLToPath(import.meta.url));

export const evalRoot = resolve(here, '..');
export const repoRoot = resolve(evalRoot, '..');

export const paths = {
  emulatorCli: resolve(repoRoot, 'packages/llm-emulator/dist/cli.js'),
  emailReviewServer: resolve(repoRoot, 'apps/email-review/dist/server.js'),
  helpdeskServer: resolve(repoRoot, 'apps/helpdesk/dist/server.js'),
  sampleHelpCenter: resolve(repoRoot, 'packages/knowledge/sample-help-center'),
  defaultPrompts: resolve(repoRoot, 'packages/support-profile/prompts'),
  emailDataset: resolve(evalRoot, 'datasets/email.jsonl'),
  chatDataset: resolve(evalRoot, 'datasets/chat.jsonl'),
  gateConfig: resolve(evalRoot, 'gate.config.json'),
  results: resolve(evalRoot, 'results'),
  cassettes: resolve(evalRoot, 'cassettes'),
};

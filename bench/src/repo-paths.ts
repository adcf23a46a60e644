import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** bench/src (or bench/dist) → the monorepo root, wherever the harness is started from. */
const here = dirname(fileURLToPath(import.meta.url));

export const benchRoot = resolve(here, '..');
export const repoRoot = resolve(benchRoot, '..');

export const paths = {
  benchDist: resolve(benchRoot, 'dist'),
  emulatorCli: resolve(repoRoot, 'packages/llm-emulator/dist/cli.js'),
  emailReviewServer: resolve(repoRoot, 'apps/email-review/dist/server.js'),
  emailReviewLanggraphJson: resolve(repoRoot, 'apps/email-review/langgraph.json'),
  helpdeskServer: resolve(repoRoot, 'apps/helpdesk/dist/server.js'),
  sampleHelpCenter: resolve(repoRoot, 'packages/knowledge/sample-help-center'),
  helpdeskAgentFile: resolve(repoRoot, 'apps/helpdesk/dist/agents/agent.js'),
  langgraphCli: resolve(benchRoot, 'node_modules/.bin/langgraphjs'),
  adkCli: resolve(benchRoot, 'node_modules/.bin/adk'),
  defaultReport: resolve(benchRoot, 'results/latest.md'),
};

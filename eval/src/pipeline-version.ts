import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from './paths.js';

/** What makes a pipeline: the services' code, the prompts and profile, the help center, the models. */
const CODE = [
  'apps/email-review/src',
  'apps/helpdesk/src',
  'packages/support-profile/src',
  'packages/support-profile/prompts',
  'packages/knowledge/src',
];

function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

/**
 * The pipeline version: the first 12 hex digits of a SHA-256 over the services' source, the prompt
 * overrides, the support profile, the help center articles, and the models. Reports are filed
 * under it, so two runs of the same pipeline land side by side and a change starts a new folder.
 */
export function pipelineVersion(inputs: {
  kbDir: string;
  promptsDir?: string | undefined;
  profileFile?: string | undefined;
  models: Record<string, string>;
}): string {
  const hash = createHash('sha256');
  const add = (label: string, path: string | undefined, base: string) => {
    for (const file of path ? files(path) : []) {
      hash
        .update(`${label}:${relative(base, file)}\n`)
        .update(readFileSync(file))
        .update('\n');
    }
  };
  for (const dir of CODE) add('code', join(repoRoot, dir), repoRoot);
  add('prompts', inputs.promptsDir, inputs.promptsDir ?? '');
  add('profile', inputs.profileFile, inputs.profileFile ?? '');
  add('kb', inputs.kbDir, inputs.kbDir);
  hash.update(`models:${JSON.stringify(Object.entries(inputs.models).sort())}`);
  return hash.digest('hex').slice(0, 12);
}

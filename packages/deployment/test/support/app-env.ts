import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readRepoFile, repoRoot } from './repo.js';

/** UPPER_CASE keys of the zod objects in a source file: the environment variables that file reads. */
function upperCaseKeys(source: string): string[] {
  return [...source.matchAll(/^\s*([A-Z][A-Z0-9_]{1,}):/gm)].map((match) => match[1]!);
}

/** Env fragments an app's env.ts may call (or spread), and the file whose keys they add. */
const SHARED_ENV_FILES: Record<string, string[]> = {
  loadOpenAiSettings: ['packages/llm-config/src/openai-settings.ts'],
  loadGeminiSettings: ['packages/llm-config/src/gemini-settings.ts'],
  loadAgentModelSettings: [
    'packages/llm-config/src/agent-model-settings.ts',
    'packages/llm-config/src/gemini-settings.ts',
  ],
  databaseEnv: ['packages/pg-kit/src/database-env.ts'],
  webhooksEnv: ['packages/webhooks/src/config/webhooks-env.ts'],
  loadSupportConfig: ['packages/support-profile/src/env.ts'],
  knowledgeEnv: ['packages/knowledge/src/help-center/knowledge-env.ts'],
};

export interface AppEnv {
  /** Every variable the app reads: its own env.ts and the @repo/llm-config loader it calls. */
  names: Set<string>;
  defaultPort: number;
}

/** The http-kit source that defines `httpServiceEnv` (PORT, HOST, API_TOKEN, LOG_LEVEL), if http-kit has one. */
function httpServiceEnvSource(): string | undefined {
  const dir = 'packages/http-kit/src';
  const files = readdirSync(join(repoRoot, dir), { recursive: true, encoding: 'utf8' });
  return files
    .filter((file) => file.endsWith('.ts'))
    .map((file) => readRepoFile(join(dir, file)))
    .find((source) => /\b(function|const) httpServiceEnv\b/.test(source));
}

/**
 * What an app actually reads, derived from its source (not from a copy kept here), so that a variable added to or
 * renamed in an app's env.ts shows up as a mismatch with the deployment files. The HTTP variables are either in the
 * app's env.ts or come from http-kit's `httpServiceEnv(defaultPort)`.
 */
export function appEnv(app: 'email-review' | 'helpdesk'): AppEnv {
  const envSource = readRepoFile(`apps/${app}/src/env.ts`);
  const names = new Set(upperCaseKeys(envSource));
  for (const [loader, files] of Object.entries(SHARED_ENV_FILES)) {
    if (!envSource.includes(`${loader}(`) && !envSource.includes(`...${loader}`)) continue;
    for (const file of files) upperCaseKeys(readRepoFile(file)).forEach((name) => names.add(name));
  }
  const shared = /\bhttpServiceEnv\((\d+)\)/.exec(envSource)?.[1];
  if (shared) upperCaseKeys(httpServiceEnvSource() ?? '').forEach((name) => names.add(name));
  const port = shared ?? /^\s*PORT:.*\.default\((\d+)\)/m.exec(envSource)?.[1];
  if (!port) throw new Error(`no default PORT found in apps/${app}/src/env.ts`);
  return { names, defaultPort: Number(port) };
}

/** The variables the emulator's CLI reads, and the port it defaults to. */
export function emulatorEnv(): AppEnv {
  const source = readRepoFile('packages/llm-emulator/src/env.ts');
  const port = /^\s*EMULATOR_PORT:.*\.default\((\d+)\)/m.exec(source)?.[1];
  if (!port) throw new Error('no default EMULATOR_PORT found in packages/llm-emulator/src/env.ts');
  return { names: new Set(upperCaseKeys(source)), defaultPort: Number(port) };
}

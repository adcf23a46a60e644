import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const distIndex = fileURLToPath(new URL('../dist/index.js', import.meta.url));

/** Runs a tiny start-up script against the built package in a child process. */
function startWith(env: Record<string, string>) {
  const script = `import { loadOrExit, loadOpenAiSettings } from ${JSON.stringify(distIndex)};
    loadOrExit(() => loadOpenAiSettings(process.env), 'email-review');
    process.stdout.write('started');`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
}

describe('loadOrExit', () => {
  test('when the required key is missing, then the process exits 1 with one line naming it', () => {
    const result = startWith({});
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      'email-review: configuration error: LLM_A_API_KEY is required',
    ]);
  });

  test('when the key is present, then start-up continues and the key is never printed', () => {
    const result = startWith({ LLM_A_API_KEY: 'sk-should-not-leak' });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('started');
    expect(result.stderr).not.toContain('sk-should-not-leak');
  });
});

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { evalRoot } from '../../src/paths.js';
import { scratchDir } from './scratch.js';

/** The suite's own CLI (`node dist/main.js`, what `pnpm eval` runs) with `env`, its output and exit code. */
export async function runSuite(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(evalRoot, 'dist/main.js')], {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      EVAL_OUT: scratchDir('eval-out-'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

export const closingLine = (stdout: string) => stdout.trim().split('\n').at(-1) ?? '';

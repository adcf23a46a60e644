import { loadConfig } from '../src/config.js';
import type { EmulatorProcess } from '../src/emulator/emulator-process.js';
import { ScenarioContext } from '../src/scenarios/scenario-context.js';
import { SystemPool } from '../src/scenarios/system-pool.js';

/** What a scenario context writes to stderr for one progress line and one warning. */
function stderrOf(argv: string[], env: Record<string, string> = {}): string[] {
  const config = loadConfig(['--scale', 'smoke', ...argv], env);
  const ctx = new ScenarioContext(config, {} as EmulatorProcess, 'rtest', {
    pool: new SystemPool(false),
    profilesLeft: 0,
  });
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    ctx.log('scenario 1: started');
    ctx.warn('scenario 2 failed: boom');
  } finally {
    process.stderr.write = write;
  }
  return written.map((line) => line.replace(/^\[bench [\d:]+\] /, '').trim());
}

describe('bench progress lines', () => {
  test('when neither --progress nor BENCH_PROGRESS is given, then only failures are printed', () => {
    expect(stderrOf([])).toEqual(['scenario 2 failed: boom']);
  });

  test.each([
    ['--progress', ['--progress'], {}],
    ['BENCH_PROGRESS=true', [], { BENCH_PROGRESS: 'true' }],
  ])('when %s is given, then progress lines are printed too', (_label, argv, env) => {
    expect(stderrOf(argv, env)).toEqual(['scenario 1: started', 'scenario 2 failed: boom']);
  });
});

import { loadConfig } from './config.js';
import { runBench } from './run-bench.js';

/** `pnpm bench` (root) → `node bench/dist/main.js [--scale smoke|full|<factor>] [--only 1,2] [--out file]`. */
const argv = process.argv.slice(2);
const config = loadConfig(argv, process.env);
const command =
  process.env.npm_lifecycle_event === 'bench'
    ? `${process.env.BENCH_SCALE ? `BENCH_SCALE=${process.env.BENCH_SCALE} ` : ''}pnpm bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`
    : `node bench/dist/main.js ${argv.join(' ')}`.trim();

try {
  const outcome = await runBench(config, command);
  console.error(`report written to ${config.outFile}`);
  process.exitCode = outcome.failed.length ? 1 : 0;
} catch (err) {
  console.error((err as Error).stack ?? String(err));
  process.exitCode = 1;
}

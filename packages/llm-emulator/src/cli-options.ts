import { parseArgs } from 'node:util';
import { loadEnv } from './env.js';

export interface CliOptions {
  port: number;
  host: string;
  latencyMs: number;
}

/** The CLI's settings: `--port`, `--latency`, `--host` flags over EMULATOR_* variables over defaults. */
export function cliOptions(argv: string[], env: NodeJS.ProcessEnv): CliOptions {
  const { values } = parseArgs({
    args: argv,
    options: { port: { type: 'string' }, latency: { type: 'string' }, host: { type: 'string' } },
  });
  const settings = loadEnv({
    ...env,
    // A flag left out keeps the variable (or, with neither, the default loadEnv applies to undefined).
    EMULATOR_PORT: values.port ?? env['EMULATOR_PORT'],
    EMULATOR_LATENCY_MS: values.latency ?? env['EMULATOR_LATENCY_MS'],
    EMULATOR_HOST: values.host ?? env['EMULATOR_HOST'],
  });
  return {
    port: settings.EMULATOR_PORT,
    host: settings.EMULATOR_HOST,
    latencyMs: settings.EMULATOR_LATENCY_MS,
  };
}

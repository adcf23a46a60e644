#!/usr/bin/env node
import { cliOptions } from './cli-options.js';
import { startEmulator } from './emulator.js';

// One JSON line per event, in the shape pino writes, without a logging dependency.
function log(level: 'info' | 'error', msg: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({
    level: level === 'info' ? 30 : 50,
    time: Date.now(),
    name: 'llm-emulator',
    msg,
    ...fields,
  });
  (level === 'info' ? process.stdout : process.stderr).write(`${line}\n`);
}

// A closed stdout (e.g. piped into `head`) must not crash the emulator.
process.stdout.on('error', () => undefined);

async function main(): Promise<void> {
  const options = cliOptions(process.argv.slice(2), process.env);
  const emulator = await startEmulator({
    ...options,
    onError: (err) => log('error', 'request failed', { err: String(err) }),
  });
  log('info', 'llm emulator listening', {
    url: emulator.url,
    openai_base_url: `${emulator.url}/v1`,
    gemini_base_url: emulator.url,
    latency_ms: options.latencyMs,
  });
  const stop = (signal: string) => {
    log('info', 'shutting down', { signal });
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  log('error', 'failed to start', { err: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});

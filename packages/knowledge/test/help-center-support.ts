import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Logger } from '@repo/http-kit';
import { SAMPLE_DIR } from './knowledge-base-contract.js';

/** A copy of the sample help center to change; `remove` deletes it. */
export function sampleFolder() {
  const dir = mkdtempSync(join(tmpdir(), 'help-center-'));
  cpSync(SAMPLE_DIR, dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A logger whose lines (parsed) the test reads. */
export function capturedLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    name: 'knowledge-test',
    destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
  });
  return { logger, lines };
}

/** Waits until `check` holds, failing after `ms`. */
export async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not so after ${ms} ms`);
    await new Promise((done) => setTimeout(done, 25));
  }
}

import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * Copies a child's output line by line with a prefix, so the interleaved logs of several services stay readable
 * and a line is never split by another process's output.
 */
export function prefixLines(stream: Readable, prefix: string, write: (line: string) => void): void {
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  lines.on('line', (line) => write(`${prefix}${line}`));
}

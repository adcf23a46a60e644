import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * Hands a child's output on line by line (the caller adds its prefix), so the interleaved logs of several services
 * stay readable and a line is never split by another process's output.
 */
export function prefixLines(stream: Readable, write: (line: string) => void): void {
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  lines.on('line', write);
}

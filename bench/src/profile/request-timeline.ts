import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { paths } from '../repo-paths.js';
import { mean } from '../stats/percentiles.js';

/**
 * One span the preload recorded inside the service: an HTTP request it served, or a model call it
 * made (from undici creating the request to the last byte of the response), in that process's
 * `performance.now()` milliseconds.
 */
export interface TimelineSpan {
  kind: 'request' | 'call';
  start: number;
  end: number;
}

/** One served request split around its model calls, ms. */
export interface RequestParts {
  total: number;
  /** From the request's arrival to the first model call going out. */
  before: number;
  /** Between one model call's answer and the next call going out, summed. */
  between: number;
  /** From the last model call's answer to the response being sent. */
  after: number;
  /** Each model call on the wire, as the service saw it. */
  calls: number[];
}

/** `node` flags that load the preload into a project service. */
export const TIMELINE_NODE_FLAGS = [
  '--import',
  join(paths.benchDist, 'profile/request-timeline-preload.js'),
];

/** Where the preload of process `pid` writes its spans (the preload computes the same path). */
export function timelineFile(pid: number): string {
  return join(tmpdir(), `bench-timeline-${pid}.json`);
}

/**
 * Asks the service's preload (SIGUSR2) for the spans recorded since the last read, and waits for
 * the file it writes. The preload starts afresh after each read.
 */
export async function readTimeline(pid: number, timeoutMs = 5000): Promise<TimelineSpan[]> {
  const file = timelineFile(pid);
  await rm(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      const spans = JSON.parse(await readFile(file, 'utf8')) as TimelineSpan[];
      await rm(file, { force: true });
      return spans;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (performance.now() > deadline)
        throw new Error(`process ${pid} wrote no request timeline within ${timeoutMs} ms`);
      await delay(20);
    }
  }
}

/**
 * Splits each served request that made model calls into the time before, between and after them.
 * Only for sequential traffic: with requests overlapping, a call could not be told apart.
 */
export function requestParts(spans: TimelineSpan[]): RequestParts[] {
  const requests = spans.filter((s) => s.kind === 'request').sort((a, b) => a.start - b.start);
  const calls = spans.filter((s) => s.kind === 'call').sort((a, b) => a.start - b.start);
  requests.forEach((request, i) => {
    const next = requests[i + 1];
    if (next && next.start < request.end)
      throw new Error('requestParts needs sequential traffic: two requests overlapped');
  });
  const parts: RequestParts[] = [];
  for (const request of requests) {
    const own = calls.filter((c) => c.start >= request.start && c.end <= request.end);
    const first = own[0];
    const last = own[own.length - 1];
    if (!first || !last) continue;
    let between = 0;
    for (let k = 1; k < own.length; k += 1) between += own[k]!.start - own[k - 1]!.end;
    parts.push({
      total: request.end - request.start,
      before: first.start - request.start,
      between,
      after: request.end - last.end,
      calls: own.map((c) => c.end - c.start),
    });
  }
  return parts;
}

/** Where the mean added time of a request goes, ms; the parts add up to `added`. */
export interface AddedTimeParts {
  added: number;
  /** The bench client's time minus the service's: HTTP parsing and the wire on both sides. */
  outside: number;
  before: number;
  between: number;
  after: number;
  /** The service's model calls on the wire minus the same number of direct calls. */
  callsOverDirect: number;
}

/**
 * Splits the mean added time (client time − model calls × `directCallMs`) of the requests in
 * `parts` into its parts; `clientMs` are the same requests as the bench client timed them.
 */
export function addedTimeParts(
  parts: RequestParts[],
  clientMs: number[],
  directCallMs: number,
): AddedTimeParts {
  if (parts.length === 0 || parts.length !== clientMs.length) {
    throw new Error(
      `the service timed ${parts.length} requests with model calls, the client ${clientMs.length}`,
    );
  }
  const calls = mean(parts.map((p) => p.calls.length));
  const client = mean(clientMs);
  return {
    added: client - calls * directCallMs,
    outside: client - mean(parts.map((p) => p.total)),
    before: mean(parts.map((p) => p.before)),
    between: mean(parts.map((p) => p.between)),
    after: mean(parts.map((p) => p.after)),
    callsOverDirect:
      mean(parts.map((p) => p.calls.reduce((a, b) => a + b, 0))) - calls * directCallMs,
  };
}

import { createServer, type Server } from 'node:http';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  addedTimeParts,
  readTimeline,
  requestParts,
  TIMELINE_NODE_FLAGS,
  type TimelineSpan,
} from '../src/profile/request-timeline.js';

const request = (start: number, end: number): TimelineSpan => ({ kind: 'request', start, end });
const call = (start: number, end: number): TimelineSpan => ({ kind: 'call', start, end });

describe('request timeline', () => {
  it('when a request made three model calls, then its time splits into before, between, after and the calls', () => {
    const parts = requestParts([
      request(100, 1020),
      call(102, 402),
      call(405, 705),
      call(709, 1009),
      // a request without model calls (a GET) is left out
      request(1100, 1101),
    ]);
    expect(parts).toEqual([
      { total: 920, before: 2, between: 3 + 4, after: 11, calls: [300, 300, 300] },
    ]);
  });

  it('when two requests overlap, then the split refuses: their calls cannot be told apart', () => {
    expect(() => requestParts([request(0, 10), request(5, 15), call(6, 7)])).toThrow(/sequential/);
  });

  it('when the parts of the added time are computed, then they add up to the added time', () => {
    const parts = requestParts([request(0, 620), call(5, 305), call(310, 610)]);
    const split = addedTimeParts(parts, [621.5], 299);
    expect(split.added).toBeCloseTo(621.5 - 2 * 299);
    expect(split.outside).toBeCloseTo(1.5);
    expect(split.callsOverDirect).toBeCloseTo(600 - 598);
    expect(
      split.outside + split.before + split.between + split.after + split.callsOverDirect,
    ).toBeCloseTo(split.added);
  });

  it('when the client timed a different number of requests than the service, then it says so', () => {
    const parts = requestParts([request(0, 620), call(5, 305)]);
    expect(() => addedTimeParts(parts, [1, 2], 299)).toThrow(/1 requests .* the client 2/);
  });
});

describe('request timeline preload', () => {
  let provider: Server;
  let providerUrl: string;

  beforeAll(async () => {
    provider = createServer((_req, res) => res.end('{}')).listen(0, '127.0.0.1');
    await once(provider, 'listening');
    const address = provider.address() as { port: number };
    providerUrl = `http://127.0.0.1:${address.port}`;
  });

  afterAll(() => new Promise<void>((resolve) => provider.close(() => resolve())));

  it('when a served request makes fetch calls, then the preload reports the request and each call', async () => {
    // A stand-in service: one HTTP server whose only request makes two fetch calls.
    const script = `
      import { createServer } from 'node:http';
      const server = createServer(async (req, res) => {
        await (await fetch(process.argv[1])).text();
        await (await fetch(process.argv[1])).text();
        res.end('done');
      }).listen(0, '127.0.0.1', () => console.log(server.address().port));
      process.on('SIGTERM', () => server.close());`;
    const child = spawn(
      process.execPath,
      [...TIMELINE_NODE_FLAGS, '--input-type=module', '-e', script, providerUrl],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const [line] = (await once(child.stdout!, 'data')) as [Buffer];
      const port = Number(line.toString().trim());
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('done');

      const spans = await readTimeline(child.pid!);
      const parts = requestParts(spans);
      expect(parts).toHaveLength(1);
      expect(parts[0]!.calls).toHaveLength(2);
      expect(parts[0]!.before).toBeGreaterThanOrEqual(0);
      expect(parts[0]!.after).toBeGreaterThanOrEqual(0);
      // A second read holds only what happened since the first.
      expect(await readTimeline(child.pid!)).toEqual([]);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});

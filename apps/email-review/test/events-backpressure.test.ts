import { MAX_BUFFERED_BYTES } from '@repo/http-kit';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { connect, type Socket } from 'node:net';
import { until } from './support/database.js';
import { startInstance, type Instance } from './support/harness.js';

let emulator: Emulator;
let instance: Instance;

beforeAll(async () => {
  emulator = await startEmulator();
  instance = await startInstance({ mode: 'memory', emulator });
});
afterAll(async () => {
  await instance?.close();
  await emulator?.close();
});

/** GET /events over a raw socket that never reads what comes back. */
async function stalledClient(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.pause();
  socket.write(`GET /events HTTP/1.1\r\nHost: ${hostname}\r\nAccept: text/event-stream\r\n\r\n`);
  return socket;
}

describe('GET /events and a client that stops reading', () => {
  test('when changes pile up past what the stream may hold for a client that reads nothing, then the stream is cut and unsubscribed, and other clients go on', async () => {
    const feed = instance.persistence.changes;
    const url = await instance.listen();
    const stalled = await stalledClient(url);
    await until(() => feed.subscribers === 1, 'the stalled stream subscribed');

    // Far more than the sockets' buffers and the stream's allowance (each frame ~200 bytes).
    const frames = Math.ceil((16 * MAX_BUFFERED_BYTES) / 200);
    for (let n = 1; n <= frames; n += 1)
      feed.publish({
        id: String(n),
        type: 'thread.updated',
        thread_id: `thr_${String(n).padStart(40, '0')}`,
        status: 'awaiting_review',
        revision: n,
        delivery: null,
      });
    await until(() => feed.subscribers === 0, 'the stalled stream cut');
    stalled.destroy();

    const res = await fetch(`${url}/events`, { headers: { 'last-event-id': String(frames) } });
    expect(res.status).toBe(200);
    await until(() => feed.subscribers === 1, 'a new stream subscribed');
    await res.body?.cancel();
  });
});

import http from 'node:http';
import net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { MAX_KEPT_TARGETS, sendAttempt } from '../src/sending/send-attempt.js';

const secret = `whsec_${Buffer.from('send-attempt-test-secret').toString('base64')}`;

/**
 * A receiver that verifies each request with the standardwebhooks package and counts the
 * connections it accepted; `resetReused` makes it reset (RST) a kept connection on its second
 * request instead of answering, as a server does when its idle timeout races a reuse.
 */
async function receiver(resetReused: boolean) {
  const sockets = new Set<Socket>();
  const served = new WeakMap<Socket, number>();
  const verified: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const count = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, count);
      if (resetReused && count > 1) {
        req.socket.resetAndDestroy();
        return;
      }
      new Webhook(secret).verify(
        Buffer.concat(chunks).toString('utf8'),
        req.headers as Record<string, string>,
      );
      verified.push(String(req.headers['webhook-id']));
      res.writeHead(204).end();
    });
  });
  server.on('connection', (socket: Socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    verified,
    connections: () => sockets.size,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const attempt = (url: string, messageId: string) =>
  sendAttempt({
    url,
    secret,
    messageId,
    body: JSON.stringify({ type: 'test', timestamp: new Date().toISOString(), data: {} }),
    timeoutMs: 2_000,
    allowPrivate: true,
  });

describe('one signed POST', () => {
  it('when three attempts go to one endpoint in turn, then all are verified over one kept connection', async () => {
    const target = await receiver(false);
    try {
      for (const id of ['msg_1', 'msg_2', 'msg_3']) {
        expect(await attempt(target.url, id)).toEqual({ kind: 'delivered', status: 204 });
      }
      expect(target.verified).toEqual(['msg_1', 'msg_2', 'msg_3']);
      expect(target.connections()).toBe(1);
    } finally {
      await target.close();
    }
  });

  it('when the receiver resets a kept connection as it is reused, then the attempt is sent again on a new one and delivered', async () => {
    const target = await receiver(true);
    try {
      expect(await attempt(target.url, 'msg_a')).toEqual({ kind: 'delivered', status: 204 });
      expect(await attempt(target.url, 'msg_b')).toEqual({ kind: 'delivered', status: 204 });
      expect(target.verified).toEqual(['msg_a', 'msg_b']);
      expect(target.connections()).toBe(2);
    } finally {
      await target.close();
    }
  });
});

describe('a receiver that closes its answer early', () => {
  it('when the receiver sends its status and part of the body, then closes, then the attempt ends as a retry instead of hanging', async () => {
    const sockets = new Set<Socket>();
    // Status and headers for 100 bytes, 5 sent, then a clean close: Node's request then emits no error.
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.once('data', () =>
        socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\nshort'),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    try {
      let timer: NodeJS.Timeout | undefined;
      const result = await Promise.race([
        sendAttempt({
          url,
          secret,
          messageId: 'msg_cut',
          body: '{}',
          timeoutMs: 1_000,
          allowPrivate: true,
        }),
        new Promise((resolve) => {
          timer = setTimeout(() => resolve('still waiting after 5 s'), 5_000);
        }),
      ]).finally(() => clearTimeout(timer));
      expect(result).toMatchObject({ kind: 'retry' });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/** Distinct ports on loopback where nothing listens (all bound at once, then closed). */
async function closedPorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => http.createServer());
  await Promise.all(
    servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

describe('kept connections', () => {
  it(`when attempts go to more than ${MAX_KEPT_TARGETS} other targets, then the first target's kept connection is let go and its next attempt opens a new one and is delivered`, async () => {
    const target = await receiver(false);
    try {
      expect(await attempt(target.url, 'msg_first')).toEqual({ kind: 'delivered', status: 204 });
      for (const port of await closedPorts(MAX_KEPT_TARGETS)) {
        expect((await attempt(`http://127.0.0.1:${port}/hooks`, `msg_${port}`)).kind).toBe('retry');
      }
      expect(await attempt(target.url, 'msg_again')).toEqual({ kind: 'delivered', status: 204 });
      expect(target.verified).toEqual(['msg_first', 'msg_again']);
      expect(target.connections()).toBe(2);
    } finally {
      await target.close();
    }
  });

  it(`when attempts go to ${MAX_KEPT_TARGETS - 1} other targets in between, then the first target's connection is still reused`, async () => {
    const target = await receiver(false);
    try {
      expect(await attempt(target.url, 'msg_first')).toEqual({ kind: 'delivered', status: 204 });
      for (const port of await closedPorts(MAX_KEPT_TARGETS - 1)) {
        expect((await attempt(`http://127.0.0.1:${port}/hooks`, `msg_${port}`)).kind).toBe('retry');
      }
      expect(await attempt(target.url, 'msg_again')).toEqual({ kind: 'delivered', status: 204 });
      expect(target.connections()).toBe(1);
    } finally {
      await target.close();
    }
  });
});

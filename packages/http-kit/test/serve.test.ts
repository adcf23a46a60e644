import { Router } from 'express';
import { pino } from 'pino';
import { createHttpApp, serve } from '../src/index.js';

describe('serve', () => {
  test('when closed with a request in flight, then the request completes and close hooks run after it', async () => {
    const events: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const routes = Router();
    routes.get('/slow', async (_req, res) => {
      events.push('request started');
      await released;
      res.json({ done: true });
      events.push('request answered');
    });
    const logger = pino({ level: 'silent' });
    const running = await serve(createHttpApp({ name: 't', logger, routes }), {
      port: 0,
      host: '127.0.0.1',
      logger,
      handleSignals: false,
      onClose: [() => void events.push('close hook')],
    });

    const response = fetch(`${running.url}/slow`);
    const deadline = Date.now() + 5000;
    while (!events.includes('request started') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 5));
    }
    const closed = running.close();
    release();
    const body = await (await response).json();
    await closed;

    expect(body).toEqual({ done: true });
    expect(events).toEqual(['request started', 'request answered', 'close hook']);
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
  });
});

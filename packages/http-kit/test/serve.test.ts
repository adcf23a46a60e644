import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Router } from 'express';
import { pino } from 'pino';
import { createHttpApp, serve } from '../src/index.js';

const distIndex = fileURLToPath(new URL('../dist/index.js', import.meta.url));

/** Runs a service built on the compiled package in a child process; `crash` runs once it listens. */
function serveThenCrash(crash: string, closeHook = "() => logger.info('close hook ran')") {
  const script = `import { Router } from 'express';
    import { createHttpApp, createLogger, serve } from ${JSON.stringify(distIndex)};
    const logger = createLogger({ name: 'crashing-service' });
    await serve(createHttpApp({ name: 'crashing-service', logger, routes: Router() }), {
      port: 0,
      host: '127.0.0.1',
      logger,
      shutdownTimeoutMs: 1000,
      onClose: [${closeHook}],
    });
    ${crash}`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { PATH: process.env.PATH ?? '' },
    encoding: 'utf8',
    timeout: 15_000,
  });
  const lines = result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string } });
  return { status: result.status, lines };
}

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

  test('when closed with an endless stream open, then onDraining ends it and the close finishes without waiting for the timeout', async () => {
    const streams = new Set<import('express').Response>();
    const routes = Router();
    routes.get('/stream', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
      streams.add(res);
    });
    const logger = pino({ level: 'silent' });
    const running = await serve(createHttpApp({ name: 't', logger, routes }), {
      port: 0,
      host: '127.0.0.1',
      logger,
      handleSignals: false,
      // Far beyond the test's own timeout: only onDraining can let the close finish in time.
      shutdownTimeoutMs: 600_000,
      onDraining: [() => streams.forEach((res) => res.end())],
    });
    const response = await fetch(`${running.url}/stream`);
    const reader = response.body!.getReader();
    await reader.read();

    await running.close();

    expect((await reader.read()).done).toBe(true);
  });

  test.each([
    ['throws', "setTimeout(() => { throw new Error('disk on fire'); }, 0);", 'uncaught exception'],
    ['rejects', "void Promise.reject(new Error('disk on fire'));", 'unhandled rejection'],
  ])(
    'when the service %s after listening, then it logs one fatal line, runs its close hooks and exits 1',
    (_label, crash, origin) => {
      const { status, lines } = serveThenCrash(crash);

      const fatal = lines.filter((line) => line.level === 60);
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toMatchObject({ msg: origin, err: { message: 'disk on fire' } });
      expect(lines.map((line) => line.msg)).toContain('close hook ran');
      expect(status).toBe(1);
    },
  );

  test('when signals are not handled, then no crash handlers are installed', async () => {
    const before = ['uncaughtException', 'unhandledRejection'].map((e) => process.listenerCount(e));
    const logger = pino({ level: 'silent' });
    const running = await serve(createHttpApp({ name: 't', logger, routes: Router() }), {
      port: 0,
      host: '127.0.0.1',
      logger,
      handleSignals: false,
    });
    await running.close();

    const after = ['uncaughtException', 'unhandledRejection'].map((e) => process.listenerCount(e));
    expect(after).toEqual(before);
  });

  test('when a close hook hangs after a crash, then the process still exits 1 within the shutdown timeout', () => {
    const started = Date.now();
    const { status, lines } = serveThenCrash(
      "void Promise.reject(new Error('disk on fire'));",
      '() => new Promise(() => {})',
    );

    expect(status).toBe(1);
    expect(lines.map((line) => line.msg)).toContain('shutdown timed out');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

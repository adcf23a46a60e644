import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { INVOICE_QUESTION } from './support/harness.js';
import { createOwnCluster, type OwnCluster } from './support/own-cluster.js';
import { buildService, startService, type ServiceProcess } from './support/service-process.js';

let emulator: Emulator;
let cluster: OwnCluster;
let service: ServiceProcess | undefined;

beforeAll(async () => {
  await buildService();
  emulator = await startEmulator({ port: 0 });
  cluster = await createOwnCluster();
}, 120_000);

afterAll(async () => {
  await service?.kill();
  await emulator?.close();
  await cluster?.remove();
}, 30_000);

async function statusOf(path: string): Promise<number> {
  return (await service!.get(path)).status;
}

async function pollUntil(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

describe('the session database away', () => {
  it('when the database is down at start-up, then the service waits (healthz 200, readyz 503, chat 503 with Retry-After) and serves once it is up, and again after an outage, without a restart', async () => {
    service = await startService({
      AGENT_LLM_BASE_URL: emulator.url,
      DATABASE_URL: cluster.url,
      DATABASE_SCHEMA: 'helpdesk_down',
    });

    expect(await statusOf('/healthz')).toBe(200);
    expect(await statusOf('/readyz')).toBe(503);
    const refused = await service.chat('down-1', INVOICE_QUESTION);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({ code: 'database_unavailable' });
    // The help center's knowledge base lives in the same database.
    const articles = await service.get('/kb/articles');
    expect(articles.status).toBe(503);
    expect(await articles.json()).toMatchObject({ code: 'database_unavailable' });

    await cluster.start();
    await pollUntil(async () => (await statusOf('/readyz')) === 200, 60_000, 'readyz 200');
    expect((await service.chat('down-1', INVOICE_QUESTION)).status).toBe(200);

    await cluster.stop();
    const during = await service.chat('down-1', 'Is the API down?');
    expect(during.status).toBe(503);
    expect(await during.json()).toMatchObject({ code: 'database_unavailable' });
    expect(await statusOf('/readyz')).toBe(503);
    expect((await service.get('/sessions/down-1')).status).toBe(503);
    expect((await service.get('/kb/search?q=refund')).status).toBe(503);

    await cluster.start();
    await pollUntil(async () => (await statusOf('/readyz')) === 200, 30_000, 'readyz 200 again');
    expect((await service.chat('down-1', 'Is the API down?')).status).toBe(200);
    const turns = ((await (await service.get('/sessions/down-1')).json()) as { turns: unknown[] })
      .turns;
    expect(turns).toHaveLength(4);
    expect((await service.get('/kb/articles')).status).toBe(200);
    expect(service.child.exitCode).toBeNull();
  }, 120_000);

  it('when the database freezes (connections accepted, nothing answered), then chat answers 503 database_unavailable once PG_QUERY_TIMEOUT_MS has passed, leaves no half turn, and serves again once it thaws', async () => {
    await service?.kill();
    await cluster.start();
    service = await startService({
      AGENT_LLM_BASE_URL: emulator.url,
      DATABASE_URL: cluster.url,
      DATABASE_SCHEMA: 'helpdesk_frozen',
      PG_CONNECT_TIMEOUT_MS: '1500',
      PG_QUERY_TIMEOUT_MS: '1500',
    });
    await pollUntil(async () => (await statusOf('/readyz')) === 200, 60_000, 'readyz 200');
    expect((await service.chat('frozen-1', INVOICE_QUESTION)).status).toBe(200);

    await cluster.freeze();
    try {
      // Without a client-side bound this waited for TCP to give up (many minutes).
      const during = await fetch(`${service.url}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session_id: 'frozen-1', message: 'Is the API down?' }),
        signal: AbortSignal.timeout(30_000),
      });
      expect(during.status).toBe(503);
      expect(await during.json()).toMatchObject({ code: 'database_unavailable' });
    } finally {
      await cluster.thaw();
    }

    await pollUntil(
      async () => (await statusOf('/readyz')) === 200,
      30_000,
      'readyz 200 after thaw',
    );
    // The session's lease from the frozen turn may still be held until it expires or is released.
    await pollUntil(
      async () => (await service!.chat('frozen-1', 'Is the API down?')).status === 200,
      60_000,
      'a turn after the thaw',
    );
    const turns = ((await (await service.get('/sessions/frozen-1')).json()) as { turns: unknown[] })
      .turns;
    expect(turns).toHaveLength(4);
    expect(service.child.exitCode).toBeNull();
  }, 180_000);
});

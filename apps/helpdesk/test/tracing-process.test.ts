import { startOtlpReceiver } from '@repo/http-kit';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { INVOICE_QUESTION, waitFor } from './support/harness.js';
import {
  buildService,
  dropSchema,
  startService,
  TEST_DATABASE_URL,
  testSchema,
  waitUntilReady,
  type ServiceProcess,
} from './support/service-process.js';

const schema = testSchema('hd_tracing');
let emulator: Emulator;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let service: ServiceProcess | undefined;

beforeAll(async () => {
  await buildService();
  emulator = await startEmulator({ port: 0 });
  receiver = await startOtlpReceiver();
}, 120_000);
afterAll(async () => {
  await service?.stop();
  await emulator?.close();
  await receiver?.close();
  await dropSchema(schema);
});

test('when the service runs with OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME and sessions in PostgreSQL, then a chat’s trace, under that service name, holds the request, ADK’s agents, the model calls and the session queries', async () => {
  service = await startService({
    AGENT_LLM_BASE_URL: emulator.url,
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: schema,
    PG_POOL_MAX: '4',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_SERVICE_NAME: 'helpdesk-eu',
  });
  await waitUntilReady(service);

  const res = await service.chat('traced-session', INVOICE_QUESTION);
  expect(res.status).toBe(200);
  // The SDK exports in batches, every few seconds.
  await waitFor(
    () => receiver.spans.some((s) => s.name === 'POST /chat'),
    20_000,
    'the request’s span',
  );

  const http = receiver.spans.find((s) => s.name === 'POST /chat')!;
  await waitFor(
    () => receiver.spans.filter((s) => s.traceId === http.traceId).length > 5,
    20_000,
    'the rest of the trace',
  );
  const trace = receiver.spans.filter((s) => s.traceId === http.traceId);
  expect(new Set(trace.map((s) => s.resource['service.name']))).toEqual(new Set(['helpdesk-eu']));
  const names = new Set(trace.map((s) => s.name));
  expect([...names]).toEqual(
    expect.arrayContaining([
      'invocation',
      'invoke_agent coordinator',
      'invoke_agent billing',
      'chat gemini-2.5-flash',
      'execute_tool lookup_invoice',
    ]),
  );
  const queries = trace.filter((s) => s.attributes['db.system.name'] === 'postgresql');
  expect(queries.length).toBeGreaterThan(0);
  expect(queries.every((s) => !String(s.attributes['db.query.text']).includes('INV-1001'))).toBe(
    true,
  );
}, 60_000);

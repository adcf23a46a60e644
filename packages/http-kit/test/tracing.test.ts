import http from 'node:http';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { z } from 'zod';
import {
  createHttpApp,
  currentLogger,
  defineRoute,
  startOtlpReceiver,
  startTracing,
  type Tracing,
} from '../src/index.js';

describe('tracing', () => {
  // What the HTTP instrumentation wraps: every server's request event.
  const stockEmit = http.Server.prototype.emit;

  test('when no endpoint is set, then tracing is off and nothing is patched', async () => {
    const tracing = await startTracing({ serviceName: 'test' });
    expect(tracing.enabled).toBe(false);
    expect(http.Server.prototype.emit).toBe(stockEmit);
  });

  describe('with an OTLP/HTTP receiver', () => {
    let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
    let tracing: Tracing;
    beforeAll(async () => {
      receiver = await startOtlpReceiver();
      // The standard variable, as an operator sets it (jest gives each test file its own env).
      process.env.OTEL_SERVICE_NAME = 'items-eu';
      tracing = await startTracing({ serviceName: 'test', endpoint: receiver.url });
    });
    afterAll(async () => {
      await tracing?.shutdown();
      await receiver?.close();
    });

    test('when a request is served, then its server span is exported under the route template and every log line of the request carries its trace id', async () => {
      const lines: Array<Record<string, unknown>> = [];
      const logger = pino(
        { level: 'info' },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
            done();
          },
        }),
      );
      const app = createHttpApp({
        name: 'test',
        logger,
        tracing: true,
        api: {
          title: 'items',
          version: '1',
          routes: [
            defineRoute({
              method: 'get',
              path: '/items/{item_id}',
              summary: 'Get an item.',
              params: z.object({ item_id: z.string() }),
              responses: { 200: { description: 'The item.' } },
              handler: async ({ params, res }) => {
                await new Promise((resolve) => setImmediate(resolve));
                currentLogger(logger).info({ item_id: params.item_id }, 'item read');
                res.json({ item_id: params.item_id });
              },
            }),
          ],
        },
      });

      expect((await request(app).get('/items/a1')).status).toBe(200);
      await tracing.flush();

      const span = receiver.spans.find((s) => s.name === 'GET /items/{item_id}');
      expect(span?.scope).toBe('@opentelemetry/instrumentation-http');
      expect(span?.attributes).toMatchObject({
        'http.request.method': 'GET',
        'http.route': '/items/{item_id}',
        'http.response.status_code': 200,
      });
      const requestLines = lines.filter(
        (line) => line.msg === 'item read' || line.msg === 'request completed',
      );
      expect(requestLines).toHaveLength(2);
      for (const line of requestLines) expect(line.trace_id).toBe(span?.traceId);
    });

    test('when OTEL_SERVICE_NAME is set, then it is the spans’ service.name, not the name in the code', async () => {
      const app = createHttpApp({ name: 'test', tracing: true, logger: pino({ level: 'silent' }) });
      await request(app).get('/healthz').expect(200);
      await tracing.flush();

      const span = receiver.spans.findLast((s) => s.name.startsWith('GET'));
      expect(span?.resource['service.name']).toBe('items-eu');
    });

    test('when tracing shuts down, then the HTTP module is as it was', async () => {
      expect(http.Server.prototype.emit).not.toBe(stockEmit);
      await tracing.shutdown();
      expect(http.Server.prototype.emit).toBe(stockEmit);
    });
  });
});

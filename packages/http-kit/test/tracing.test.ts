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
  test('when no endpoint is set, then tracing is off and nothing is loaded', async () => {
    const tracing = await startTracing({ serviceName: 'test' });
    expect(tracing.enabled).toBe(false);
  });

  describe('with an OTLP/HTTP receiver', () => {
    let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
    let tracing: Tracing;
    beforeAll(async () => {
      receiver = await startOtlpReceiver();
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
      expect(span?.attributes).toMatchObject({
        'http.route': '/items/{item_id}',
        'http.response.status_code': 200,
      });
      const requestLines = lines.filter(
        (line) => line.msg === 'item read' || line.msg === 'request completed',
      );
      expect(requestLines).toHaveLength(2);
      for (const line of requestLines) expect(line.trace_id).toBe(span?.traceId);
    });
  });
});

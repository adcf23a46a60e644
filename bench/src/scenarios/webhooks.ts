import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmailReview, createOpenAiClient, openPostgresPersistence } from 'email-review';
import { noWebhooks, type WebhookSettings } from '@repo/webhooks';
import { WebhookReceiver } from '@repo/webhooks/receiver';
import { pino } from 'pino';
import { EmailReviewDriver } from '../drivers/email-review-driver.js';
import { runLoad } from '../load/run-load.js';
import type { WebhooksResult, WebhookVariant } from './results.js';
import type { ScenarioContext } from './scenario-context.js';
import { assertMostlySucceeded, emailIteration, warmUp } from './workloads.js';

const MODEL = 'bench-model';

interface Served {
  variant: WebhookVariant;
  driver: EmailReviewDriver;
  close(): Promise<void>;
}

/** email-review over PostgreSQL, listening in this process; `settings`: its webhook endpoints. */
async function serve(
  ctx: ScenarioContext,
  variant: WebhookVariant,
  settings: WebhookSettings,
  concurrency: number,
): Promise<Served> {
  const logger = pino({ level: 'silent' });
  const db = await ctx.database(`webhooks_${variant}`);
  const persistence = await openPostgresPersistence({
    connectionString: db.url,
    schema: db.schema,
    poolMax: 10,
    logger,
    webhooks: { settings },
  });
  const service = createEmailReview({
    persistence,
    llm: createOpenAiClient({
      apiKey: 'bench-key',
      model: MODEL,
      baseURL: ctx.emulator.openAiBaseUrl,
      timeoutMs: 30_000,
      maxRetries: 0,
    }),
    model: MODEL,
    logger,
  });
  await service.delivery.start();
  const server: Server = service.app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const driver = new EmailReviewDriver(
    `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    concurrency,
  );
  return {
    variant,
    driver,
    async close() {
      driver.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await service.delivery.stop();
      await persistence.close();
    },
  };
}

/**
 * Scenario 10: what webhooks cost email-review's throughput on PostgreSQL, where every event is a
 * delivery row and a pg-boss job in the transaction of the change it reports. The service runs in
 * the bench's process over HTTP with the emulator answering at once; the two variants take turns
 * round by round.
 */
export async function webhooksScenario(ctx: ScenarioContext): Promise<WebhooksResult> {
  const { rounds, lifecycles, concurrency } = ctx.config.webhooks;
  await ctx.emulator.setLatency(0);
  const receiver = await WebhookReceiver.start();
  const subscribed: WebhookSettings = {
    ...noWebhooks(),
    // The receiver is on loopback, in this process.
    allowPrivate: true,
    endpoints: [
      { id: 'bench', name: 'bench', url: receiver.url, secret: receiver.secret, events: ['*'] },
    ],
  };
  const measured: WebhooksResult['rounds'] = { none: [], subscribed: [] };
  const systems = [
    await serve(ctx, 'none', noWebhooks(), concurrency),
    await serve(ctx, 'subscribed', subscribed, concurrency),
  ];
  try {
    for (const served of systems) {
      await warmUp(
        emailIteration(served.driver, `${ctx.runTag}-w-warm-${served.variant}`),
        ctx.config.warmup,
      );
    }
    for (let round = 0; round < rounds; round++) {
      ctx.log(`scenario 10: round ${round + 1} of ${rounds}`);
      const order = round % 2 === 0 ? systems : [...systems].reverse();
      for (const served of order) {
        const iteration = emailIteration(
          served.driver,
          `${ctx.runTag}-w-${served.variant}-${round}`,
        );
        const run = await runLoad({ total: lifecycles, concurrency }, iteration);
        assertMostlySucceeded(`webhooks ${served.variant}`, run);
        measured[served.variant].push(run.perSecond);
      }
    }
  } finally {
    for (const served of systems) await served.close();
    await receiver.close();
  }
  return {
    scenario: 10,
    concurrency,
    lifecycles,
    rounds: measured,
    delivered: receiver.received.length,
  };
}

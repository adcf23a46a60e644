import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMetricsRegistry,
  startOtlpReceiver,
  startTracing,
  type Tracing,
} from '@repo/http-kit';
import { createEmailReview, createMemoryPersistence } from 'email-review';
import { pino } from 'pino';
import { EmailReviewDriver } from '../drivers/email-review-driver.js';
import { runLoad } from '../load/run-load.js';
import type { ObservabilityResult, ObservabilityVariant } from './results.js';
import type { ScenarioContext } from './scenario-context.js';
import { assertMostlySucceeded, emailIteration, warmUp } from './workloads.js';
import { emulatorLlm, MODEL } from './in-process-llm.js';

interface Served {
  driver: EmailReviewDriver;
  close(): Promise<void>;
}

/** The whole email-review service over memory, listening in this process, with `variant`'s telemetry. */
async function serve(
  ctx: ScenarioContext,
  variant: ObservabilityVariant,
  tracing: Tracing | undefined,
  concurrency: number,
): Promise<Served> {
  const persistence = createMemoryPersistence();
  const llm = emulatorLlm(ctx);
  const service = createEmailReview({
    persistence,
    llm,
    model: MODEL,
    logger: pino({ level: 'silent' }),
    ...(variant === 'off' ? {} : { metrics: { registry: createMetricsRegistry() } }),
    ...(variant === 'tracing' && tracing ? { tracing } : {}),
  });
  await service.delivery.start();
  const server: Server = service.app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const driver = new EmailReviewDriver(
    `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    concurrency,
  );
  return {
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
 * Scenario 8: what metrics and tracing cost email-review's throughput. The service runs in the
 * bench's process over HTTP with the emulator answering at once, so only the service's own work is
 * timed. Metrics off and on take turns round by round, each first in every other round; tracing (spans exported over OTLP/HTTP to a
 * receiver in this process) is measured after them, since the SDK, once registered, stays for the
 * process.
 */
export async function observabilityScenario(ctx: ScenarioContext): Promise<ObservabilityResult> {
  const { rounds, lifecycles, concurrency } = ctx.config.observability;
  await ctx.emulator.setLatency(0);
  const measured: ObservabilityResult['rounds'] = { off: [], metrics: [], tracing: [] };
  const measure = async (variant: ObservabilityVariant, served: Served, round: number) => {
    const iteration = emailIteration(served.driver, `${ctx.runTag}-o-${variant}-${round}`);
    const run = await runLoad({ total: lifecycles, concurrency }, iteration);
    assertMostlySucceeded(`observability ${variant}`, run);
    measured[variant].push(run.perSecond);
  };

  const plain = [
    { variant: 'off' as const, served: await serve(ctx, 'off', undefined, concurrency) },
    { variant: 'metrics' as const, served: await serve(ctx, 'metrics', undefined, concurrency) },
  ];
  try {
    for (const { variant, served } of plain)
      await warmUp(
        emailIteration(served.driver, `${ctx.runTag}-o-warm-${variant}`),
        ctx.config.warmup,
      );
    for (let round = 0; round < rounds; round++) {
      ctx.log(`scenario 8: round ${round + 1} of ${rounds}`);
      // Each goes first in every other round, so neither gains from running after the other.
      const order = round % 2 === 0 ? plain : [...plain].reverse();
      for (const { variant, served } of order) await measure(variant, served, round);
    }
  } finally {
    for (const { served } of plain) await served.close();
  }

  const receiver = await startOtlpReceiver();
  const tracing = await startTracing({ serviceName: 'email-review-bench', endpoint: receiver.url });
  const traced = await serve(ctx, 'tracing', tracing, concurrency);
  try {
    await warmUp(emailIteration(traced.driver, `${ctx.runTag}-o-warm-tracing`), ctx.config.warmup);
    for (let round = 0; round < rounds; round++) {
      ctx.log(`scenario 8: tracing, round ${round + 1} of ${rounds}`);
      await measure('tracing', traced, round);
    }
    await tracing.flush();
  } finally {
    await traced.close();
    await tracing.shutdown();
    await receiver.close();
  }
  return {
    scenario: 8,
    concurrency,
    lifecycles,
    rounds: measured,
    spansExported: receiver.spans.length,
  };
}

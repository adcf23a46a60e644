import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmailReview, openPostgresPersistence } from 'email-review';
import { envelopeOf, noWebhooks, sendAttempt, type WebhookSettings } from '@repo/webhooks';
import { pino } from 'pino';
import { EmailReviewDriver } from '../drivers/email-review-driver.js';
import { runLoad } from '../load/run-load.js';
import { paths } from '../repo-paths.js';
import type { WebhooksResult, WebhookVariant } from './results.js';
import type { ScenarioContext } from './scenario-context.js';
import { assertMostlySucceeded, emailIteration, warmUp } from './workloads.js';
import { emulatorLlm, MODEL } from './in-process-llm.js';

/** The endpoint in a child process (webhook-receiver-child.ts), reached over IPC. */
class ReceiverProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly secret: string,
  ) {}

  static async start(): Promise<ReceiverProcess> {
    const child = fork(join(paths.benchDist, 'scenarios/webhook-receiver-child.js'), [], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    // `once` rejects on 'error'; an exit before the first message fails the start too.
    const exited = once(child, 'exit').then(([code]) => {
      throw new Error(
        `scenario 10: the receiver process exited (${String(code)}) before listening`,
      );
    });
    exited.catch(() => undefined);
    const [address] = (await Promise.race([once(child, 'message'), exited])) as [
      { url: string; secret: string },
    ];
    return new ReceiverProcess(child, address.url, address.secret);
  }

  async counts(): Promise<{ received: number; rejected: number }> {
    const answer = once(this.child, 'message');
    this.child.send('count');
    return ((await answer) as [{ received: number; rejected: number }])[0];
  }

  async close(): Promise<void> {
    const exited = once(this.child, 'exit');
    this.child.send('close');
    await exited;
  }
}

interface Served {
  variant: WebhookVariant;
  driver: EmailReviewDriver;
  /** The floor variant's sender: it sends after each lifecycle, and the drain waits for it. */
  floor?: FloorSender;
  /** Resolves once no email delivery is queued and no webhook delivery pending (at most 30 s). */
  drained(): Promise<void>;
  close(): Promise<void>;
}

/** email-review over PostgreSQL, listening in this process; `settings`: its webhook endpoints. */
async function serve(
  ctx: ScenarioContext,
  variant: WebhookVariant,
  settings: WebhookSettings,
  { concurrency, floor }: { concurrency: number; floor?: FloorSender },
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
    llm: emulatorLlm(ctx),
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
    floor,
    async drained() {
      for (let waited = 0; waited < 30_000; waited += 10) {
        const [queued, pending] = await Promise.all([
          persistence.database!.pool.query(
            `SELECT 1 FROM "${db.schema}".email_deliveries WHERE status = 'queued' LIMIT 1`,
          ),
          persistence.outbox.list({ status: 'pending', limit: 1 }),
        ]);
        if (queued.rowCount === 0 && pending.length === 0 && !floor?.busy) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error('scenario 10: deliveries still pending 30 s after the last round');
    },
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
 * The floor variant's sender: after a lifecycle, the three events it reports, signed and POSTed
 * to the receiver from this process (the service's) with the package's own sendAttempt, at once
 * and without any outbox: no row, no job, no retry. No outbox design can cost less than this.
 */
class FloorSender {
  private readonly inFlight = new Set<Promise<unknown>>();
  failed = 0;

  constructor(private readonly receiver: ReceiverProcess) {}

  send(tag: string): void {
    for (const type of ['thread.awaiting_review', 'thread.approved', 'delivery.delivered']) {
      const body = envelopeOf(
        {
          type,
          subject: `thr_${tag}`,
          data: {
            thread_id: `thr_${tag}`,
            status: type === 'thread.awaiting_review' ? 'awaiting_review' : 'sent',
            revision: 1,
            actor: 'bench',
            links: { thread: `/threads/thr_${tag}` },
          },
        },
        new Date(),
      );
      const sent: Promise<unknown> = sendAttempt({
        url: this.receiver.url,
        secret: this.receiver.secret,
        messageId: `msg_floor_${tag}_${type}`,
        body,
        timeoutMs: 10_000,
        allowPrivate: true,
      })
        .then((result) => {
          if (result.kind !== 'delivered') this.failed += 1;
        })
        .finally(() => this.inFlight.delete(sent));
      this.inFlight.add(sent);
    }
  }

  get busy(): boolean {
    return this.inFlight.size > 0;
  }
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
  const receiver = await ReceiverProcess.start();
  const subscribed: WebhookSettings = {
    ...noWebhooks(),
    // The receiver is on loopback, in a process of its own.
    allowPrivate: true,
    endpoints: [
      { id: 'bench', name: 'bench', url: receiver.url, secret: receiver.secret, events: ['*'] },
    ],
  };
  const measured: WebhooksResult['rounds'] = { none: [], subscribed: [], floor: [] };
  const drainMs: WebhooksResult['drainMs'] = { none: [], subscribed: [], floor: [] };
  const delivered: WebhooksResult['delivered'] = { none: 0, subscribed: 0, floor: 0 };
  const floorSender = new FloorSender(receiver);
  const floor = await serve(ctx, 'floor', noWebhooks(), { concurrency, floor: floorSender });
  const systems = [
    await serve(ctx, 'none', noWebhooks(), { concurrency }),
    await serve(ctx, 'subscribed', subscribed, { concurrency }),
    floor,
  ];
  // One round's lifecycles of a variant (the floor sends its events after each).
  const iterationOf = (served: Served, tag: string) => {
    const lifecycle = emailIteration(served.driver, tag);
    const sender = served.floor;
    const iteration: typeof lifecycle = sender
      ? async (i, timer) => {
          await lifecycle(i, timer);
          sender.send(`${tag}-${i}`);
        }
      : lifecycle;
    return iteration;
  };
  try {
    for (const served of systems) {
      const tag = `${ctx.runTag}-w-warm-${served.variant}`;
      await warmUp(emailIteration(served.driver, tag), ctx.config.warmup);
      // And a round at the measured concurrency, not measured: first rounds ran slower in every
      // variant (caches, JIT, the pools' connections).
      await runLoad({ total: lifecycles, concurrency }, iterationOf(served, `${tag}-c`));
      await served.drained();
    }
    // What the receiver verified so far (the warm-up's): each round's count is what it adds.
    let counted = (await receiver.counts()).received;
    for (let round = 0; round < rounds; round++) {
      ctx.log(`scenario 10: round ${round + 1} of ${rounds}`);
      // Each variant first in turn.
      const order = systems.map((_, i) => systems[(i + round) % systems.length]!);
      for (const served of order) {
        const iteration = iterationOf(served, `${ctx.runTag}-w-${served.variant}-${round}`);
        const run = await runLoad({ total: lifecycles, concurrency }, iteration);
        assertMostlySucceeded(`webhooks ${served.variant}`, run);
        measured[served.variant].push(run.perSecond);
        // Each round starts with nothing left of the last: its deliveries sent and their events
        // delivered. The wait is not in lifecycles/s (events go out after the answer, by design);
        // it is reported as how long after the last lifecycle the last event arrived.
        const drainStarted = performance.now();
        await served.drained();
        drainMs[served.variant].push(performance.now() - drainStarted);
        const { received } = await receiver.counts();
        delivered[served.variant] += received - counted;
        counted = received;
      }
    }
  } catch (error) {
    await receiver.close();
    throw error;
  } finally {
    for (const served of systems) await served.close();
  }
  const { rejected } = await receiver.counts();
  await receiver.close();
  if (rejected > 0) throw new Error(`scenario 10: ${rejected} deliveries failed verification`);
  if (floorSender.failed > 0)
    throw new Error(`scenario 10: ${floorSender.failed} floor POSTs failed`);
  return {
    scenario: 10,
    concurrency,
    lifecycles,
    rounds: measured,
    drainMs,
    delivered,
  };
}

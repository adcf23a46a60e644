import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createLogger,
  createMetricsRegistry,
  type AuthSettings,
  type Tracing,
} from '@repo/http-kit';
import type { Emulator } from '@repo/llm-emulator';
import { createEmailReview, type EmailReviewDeps } from '../../src/email-review.js';
import { createOpenAiClient } from '../../src/llm/openai-client.js';
import type { OutgoingMessage } from '../../src/delivery/delivery.js';
import type { MailTransport } from '../../src/delivery/mail-transport.js';
import type { RetryPolicy } from '../../src/delivery/retry-policy.js';
import { createMemoryPersistence } from '../../src/persistence/memory-persistence.js';
import type { Persistence } from '../../src/persistence/persistence.js';
import {
  openPostgresPersistence,
  type PostgresOptions,
} from '../../src/persistence/postgres-persistence.js';
import type { ThreadStore } from '../../src/threads/thread-store.js';
import type { MailboxSettings } from '../../src/mailbox/mailbox-service.js';
import type { RetentionSettings } from '../../src/retention/thread-retention.js';
import { TEST_DATABASE_URL, type Mode } from './database.js';
import { recordResponse } from './observed-responses.js';

/**
 * Where approved replies go in these tests (the worker hands it each message): records what it was
 * handed. Tests that need a real SMTP exchange use the SMTP transport against test/support/smtp-sink.
 */
/** Records each message as an SMTP server would accept it (so deliveries end `delivered`). */
export class TestTransport implements MailTransport {
  readonly kind = 'smtp' as const;
  readonly delivered: OutgoingMessage[] = [];

  async send(message: OutgoingMessage): Promise<string> {
    this.delivered.push(message);
    return '250 recorded';
  }

  close() {}
}

/**
 * Holds the next decision (approve, edit, reject) right after its transaction committed, before it
 * answers, until the test releases it. Share one between instances to hold whichever approve wins.
 */
export class ApprovalGate {
  private held: { entered: () => void; released: Promise<void> } | undefined;

  holdNext(): { entered: Promise<void>; release: () => void } {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const entered = new Promise<void>((resolve) => (this.held = { entered: resolve, released }));
    return { entered, release };
  }

  async pass(): Promise<void> {
    const held = this.held;
    this.held = undefined;
    if (held) {
      held.entered();
      await held.released;
    }
  }

  /** Makes `persistence`'s transactions (decisions among them) pass through the gate once committed. */
  wrap(transaction: Persistence['transaction']): Persistence['transaction'] {
    return async (work) => {
      const committed = await transaction(work);
      await this.pass();
      return committed;
    };
  }
}

/** Retries within tens of milliseconds, so that tests see a whole policy play out. */
/** pg-boss's shortest waits: a retry every second, five attempts in all. */
export const FAST_RETRIES: RetryPolicy = { maxAttempts: 5, delaySeconds: 1, backoff: false };

export interface Instance extends ReturnType<typeof createEmailReview> {
  persistence: Persistence;
  /** Where this instance's worker delivers (a TestTransport unless one was given). */
  transport: TestTransport;
  /** Holds decisions after their commit (see ApprovalGate). */
  gate: ApprovalGate;
  /** Listens on 127.0.0.1 (once) and returns the base URL, for truly concurrent clients. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export const TEST_MODEL = 'gpt-4.1-mini';

/** One service instance, wired like server.ts does, over memory or a PostgreSQL schema. */
export async function startInstance(options: {
  mode: Mode;
  emulator: Emulator;
  /** Required in postgres mode: instances given the same schema share their threads. */
  schema?: string;
  apiToken?: string;
  /** Named tokens and JWTs, as server.ts passes them from API_TOKENS / AUTH_JWKS_URL. */
  auth?: AuthSettings;
  maxRetries?: number;
  /** The most time a step spends retrying the model (default: the service's, 20 s). */
  llmRetryBudgetMs?: number;
  /** Share one between instances to count deliveries across them. */
  transport?: TestTransport;
  /** A real transport (SMTP) instead of the recording one; `transport` then stays empty. */
  mailTransport?: MailTransport;
  mailFrom?: string;
  retryPolicy?: RetryPolicy;
  /** Share one between instances to hold whichever approval wins. */
  gate?: ApprovalGate;
  /** The delivery queue's lease and concurrency (postgres mode). */
  queue?: { leaseSeconds: number; concurrency: number };
  /** Both pools' size in postgres mode (default 10). */
  poolMax?: number;
  /** The model work's queue (postgres mode): a job's lease, and workers for dead instances' jobs. */
  modelWork?: { leaseSeconds: number; concurrency: number };
  /** Framework patches switched off (postgres mode); all are on by default, as in production. */
  patches?: Pick<PostgresOptions, 'oneRowCheckpoints'>;
  /** Where the instance logs (at info level), for tests that read the log; silent otherwise. */
  logTo?: { write(line: string): void };
  /** Wraps the thread index, e.g. to simulate a crash between two writes. */
  wrapThreads?: (threads: ThreadStore) => ThreadStore;
  /** Wraps the model runs' checkpointer, e.g. to lose a checkpoint as a crash would. */
  wrapCheckpointer?: (saver: Persistence['checkpointer']) => Persistence['checkpointer'];
  /** The service's clock (default: the real one). */
  clock?: () => Date;
  retention?: RetentionSettings;
  /** Spans for requests, nodes, model calls and deliveries (a started startTracing). */
  tracing?: Tracing;
  /** Serve GET /metrics (behind `apiToken` unless `public`). */
  metrics?: { public?: boolean };
  /** Read this mailbox (started with the instance, stopped by close()). */
  mailbox?: MailboxSettings;
  /** The support profile's prompts and labels, as server.ts passes them from loadSupportConfig. */
  support?: EmailReviewDeps['support'];
  /** The help center (KB_DIR, KB_SCHEMA), started with the instance. */
  helpCenter?: EmailReviewDeps['helpCenter'];
}): Promise<Instance> {
  const logger = createLogger({
    name: 'email-review-test',
    level: options.logTo ? 'info' : (process.env.TEST_LOG_LEVEL ?? 'silent'),
    ...(options.logTo ? { destination: options.logTo } : {}),
  });
  const opened =
    options.mode === 'postgres'
      ? await openPostgresPersistence({
          connectionString: TEST_DATABASE_URL,
          schema: options.schema ?? 'public',
          poolMax: options.poolMax ?? 10,
          ...(options.modelWork ? { modelWork: options.modelWork } : {}),
          queue: {
            ...(options.queue ?? { leaseSeconds: 5, concurrency: 4 }),
            retry: options.retryPolicy ?? FAST_RETRIES,
          },
          ...options.patches,
          logger,
        })
      : createMemoryPersistence({ retry: options.retryPolicy ?? FAST_RETRIES });
  const gate = options.gate ?? new ApprovalGate();
  const persistence: Persistence = {
    ...opened,
    threads: options.wrapThreads ? options.wrapThreads(opened.threads) : opened.threads,
    checkpointer: options.wrapCheckpointer?.(opened.checkpointer) ?? opened.checkpointer,
    transaction: gate.wrap(opened.transaction.bind(opened)),
  };
  const llm = createOpenAiClient({
    apiKey: 'test-key',
    model: TEST_MODEL,
    baseURL: `${options.emulator.url}/v1`,
    timeoutMs: 10_000,
    maxRetries: options.maxRetries ?? 2,
  });
  const transport = options.transport ?? new TestTransport();
  const service = createEmailReview({
    persistence,
    llm,
    model: TEST_MODEL,
    ...(options.llmRetryBudgetMs !== undefined
      ? { llmRetryBudgetMs: options.llmRetryBudgetMs }
      : {}),
    logger,
    transport: options.mailTransport ?? transport,
    ...(options.mailFrom ? { mailFrom: options.mailFrom } : {}),
    ...(options.apiToken ? { apiToken: options.apiToken } : {}),
    ...(options.auth ? { auth: options.auth } : {}),
    onResponse: recordResponse,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.retention ? { retention: options.retention } : {}),
    ...(options.tracing ? { tracing: options.tracing } : {}),
    ...(options.metrics
      ? { metrics: { registry: createMetricsRegistry(), ...options.metrics } }
      : {}),
    ...(options.mailbox ? { mailbox: options.mailbox } : {}),
    ...(options.support ? { support: options.support } : {}),
    ...(options.helpCenter ? { helpCenter: options.helpCenter } : {}),
    ...(options.modelWork
      ? { guidelineDerivation: { leaseSeconds: options.modelWork.leaseSeconds } }
      : {}),
  });
  await service.helpCenter.start();
  await service.delivery.start();
  await service.modelWork.start();
  await service.guidelines.start();
  service.mailbox.start();
  let server: Server | undefined;
  return {
    ...service,
    persistence,
    transport,
    gate,
    async listen() {
      server ??= service.app.listen(0, '127.0.0.1');
      if (!server.listening) await once(server, 'listening');
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async close() {
      if (server) {
        server.closeAllConnections();
        await new Promise((resolve) => server!.close(resolve));
      }
      await service.close();
    },
  };
}

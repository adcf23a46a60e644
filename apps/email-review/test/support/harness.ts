import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@repo/http-kit';
import type { Emulator } from '@repo/llm-emulator';
import { createEmailReview } from '../../src/email-review.js';
import { createOpenAiClient } from '../../src/llm/openai-client.js';
import type { Mailer, OutgoingEmail } from '../../src/mailer/mailer.js';
import { createMemoryPersistence } from '../../src/persistence/memory-persistence.js';
import type { Persistence } from '../../src/persistence/persistence.js';
import {
  openPostgresPersistence,
  type PostgresOptions,
} from '../../src/db/postgres-persistence.js';
import type { ThreadStore } from '../../src/threads/thread-store.js';
import { TEST_DATABASE_URL, type Mode } from './database.js';
import { recordResponse } from './observed-responses.js';

/**
 * The delivery behind the outbox: records what it was handed. `holdNext()` makes the next delivery
 * wait until the test releases it, so the run holding the thread's lock stays in `send` meanwhile.
 */
export class TestMailer implements Mailer {
  readonly delivered: OutgoingEmail[] = [];
  private held: { entered: () => void; released: Promise<void> } | undefined;

  holdNext(): { entered: Promise<void>; release: () => void } {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const entered = new Promise<void>((resolve) => (this.held = { entered: resolve, released }));
    return { entered, release };
  }

  async send(email: OutgoingEmail): Promise<void> {
    this.delivered.push(email);
    const held = this.held;
    this.held = undefined;
    if (held) {
      held.entered();
      await held.released;
    }
  }
}

export interface Instance extends ReturnType<typeof createEmailReview> {
  persistence: Persistence;
  /** The delivery behind this instance's outbox. */
  mailer: TestMailer;
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
  maxRetries?: number;
  /** Share one between instances to hold or count deliveries across them. */
  mailer?: TestMailer;
  /** Both pools' size in postgres mode (default 10). */
  poolMax?: number;
  lockWaitMs?: number;
  /** Framework patches switched off (postgres mode); all are on by default, as in production. */
  patches?: Pick<PostgresOptions, 'namedStatements' | 'oneStatementCheckpointWrites'>;
  /** Wraps the thread index, e.g. to simulate a crash between two writes. */
  wrapThreads?: (threads: ThreadStore) => ThreadStore;
}): Promise<Instance> {
  const logger = createLogger({
    name: 'email-review-test',
    level: process.env.TEST_LOG_LEVEL ?? 'silent',
  });
  const opened =
    options.mode === 'postgres'
      ? await openPostgresPersistence({
          connectionString: TEST_DATABASE_URL,
          schema: options.schema ?? 'public',
          poolMax: options.poolMax ?? 10,
          ...(options.lockWaitMs ? { lockWaitMs: options.lockWaitMs } : {}),
          ...options.patches,
          logger,
        })
      : createMemoryPersistence();
  const persistence: Persistence = options.wrapThreads
    ? { ...opened, threads: options.wrapThreads(opened.threads) }
    : opened;
  const llm = createOpenAiClient({
    apiKey: 'test-key',
    model: TEST_MODEL,
    baseURL: `${options.emulator.url}/v1`,
    timeoutMs: 10_000,
    maxRetries: options.maxRetries ?? 2,
  });
  const mailer = options.mailer ?? new TestMailer();
  const service = createEmailReview({
    persistence,
    llm,
    model: TEST_MODEL,
    logger,
    mailer,
    ...(options.apiToken ? { apiToken: options.apiToken } : {}),
    onResponse: recordResponse,
  });
  let server: Server | undefined;
  return {
    ...service,
    persistence,
    mailer,
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
      await persistence.close();
    },
  };
}

import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@repo/http-kit';
import type { Emulator } from '@repo/llm-emulator';
import { createEmailReview } from '../../src/email-review.js';
import { createOpenAiClient } from '../../src/llm/openai-client.js';
import type { Mailer } from '../../src/mailer/mailer.js';
import { createOutboxMailer } from '../../src/mailer/outbox-mailer.js';
import { createMemoryPersistence } from '../../src/persistence/memory-persistence.js';
import type { Persistence } from '../../src/persistence/persistence.js';
import { openPostgresPersistence } from '../../src/persistence/postgres-persistence.js';
import { TEST_DATABASE_URL, type Mode } from './database.js';

export interface Instance extends ReturnType<typeof createEmailReview> {
  persistence: Persistence;
  /** How many times the workflow handed a message to this instance's mailer. */
  mailerCalls(): number;
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
  /** Slows every send down, widening the window in which concurrent approvals could collide. */
  mailerDelayMs?: number;
}): Promise<Instance> {
  const logger = createLogger({
    name: 'email-review-test',
    level: process.env.TEST_LOG_LEVEL ?? 'silent',
  });
  const persistence =
    options.mode === 'postgres'
      ? await openPostgresPersistence({
          connectionString: TEST_DATABASE_URL,
          schema: options.schema ?? 'public',
          poolMax: 10,
          logger,
        })
      : createMemoryPersistence();
  const llm = createOpenAiClient({
    apiKey: 'test-key',
    model: TEST_MODEL,
    baseURL: `${options.emulator.url}/v1`,
    timeoutMs: 10_000,
    maxRetries: options.maxRetries ?? 2,
  });
  const outboxMailer = createOutboxMailer(persistence.outbox, logger);
  let mailerCalls = 0;
  const mailer: Mailer = {
    async send(email) {
      mailerCalls += 1;
      if (options.mailerDelayMs)
        await new Promise((resolve) => setTimeout(resolve, options.mailerDelayMs));
      await outboxMailer.send(email);
    },
  };
  const service = createEmailReview({
    persistence,
    llm,
    model: TEST_MODEL,
    logger,
    mailer,
    ...(options.apiToken ? { apiToken: options.apiToken } : {}),
  });
  let server: Server | undefined;
  return {
    ...service,
    persistence,
    mailerCalls: () => mailerCalls,
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

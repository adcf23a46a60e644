import { authSettingsFromEnv, createLogger, serve, type Logger } from '@repo/http-kit';
import { loadOrExit, redactSecrets } from '@repo/llm-config';
import { createEmailReview } from './email-review.js';
import { loadServiceEnv, type ServiceEnv } from './env.js';
import { createOpenAiClient } from './llm/openai-client.js';
import { createMemoryPersistence } from './persistence/memory-persistence.js';
import type { Persistence } from './persistence/persistence.js';
import { openPostgresPersistence } from './db/postgres-persistence.js';

const env = loadOrExit(() => loadServiceEnv(), 'email-review');
const logger = createLogger({ name: 'email-review', level: env.LOG_LEVEL });

/** The configured persistence; an unreachable database ends start-up with one log line and exit 1. */
async function openPersistence(env: ServiceEnv, logger: Logger): Promise<Persistence> {
  if (!env.DATABASE_URL) return createMemoryPersistence();
  try {
    return await openPostgresPersistence({
      connectionString: env.DATABASE_URL,
      schema: env.DATABASE_SCHEMA,
      poolMax: env.PG_POOL_MAX,
      logger,
    });
  } catch (error) {
    const reason = redactSecrets(error instanceof Error ? error.message : String(error));
    const database = redactSecrets(env.DATABASE_URL);
    logger.fatal(
      { database, schema: env.DATABASE_SCHEMA, reason },
      `cannot open the database ${database}: ${reason}`,
    );
    process.exit(1);
  }
}

const persistence = await openPersistence(env, logger);

const { app } = createEmailReview({
  persistence,
  llm: createOpenAiClient(env.openai),
  model: env.openai.model,
  logger,
  ...(env.API_TOKEN ? { apiToken: env.API_TOKEN } : {}),
  auth: authSettingsFromEnv(env),
});

const running = await serve(app, {
  port: env.PORT,
  host: env.HOST,
  logger,
  onClose: [() => persistence.close()],
});

const storage =
  persistence.kind === 'postgres'
    ? `checkpointer=postgres schema=${env.DATABASE_SCHEMA}`
    : 'checkpointer=memory (threads are lost on restart; set DATABASE_URL to keep them)';
logger.info(
  {
    url: running.url,
    checkpointer: persistence.kind,
    model: env.openai.model,
    auth: Boolean(env.API_TOKEN),
  },
  `email-review listening on ${running.url} ${storage}`,
);

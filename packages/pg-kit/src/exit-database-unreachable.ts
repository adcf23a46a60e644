import type { Logger } from '@repo/http-kit';

export interface StartupDatabase {
  connectionString: string;
  schema: string;
  /** Masks secrets (passwords in URLs and messages), e.g. llm-config's redactSecrets. */
  redact: (text: string) => string;
}

/**
 * The end of a start-up whose database stayed unreachable past its bound (setUpWithRetry's
 * `untilMs`): one fatal line naming the database, without its secrets, and why; then exit 1.
 */
export function exitDatabaseUnreachable(
  logger: Logger,
  target: StartupDatabase,
  error: unknown,
): never {
  const reason = target.redact(error instanceof Error ? error.message : String(error));
  const database = target.redact(target.connectionString);
  logger.fatal(
    { database, schema: target.schema, reason },
    `cannot open the database ${database}: ${reason}`,
  );
  process.exit(1);
}

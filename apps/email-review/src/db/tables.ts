/** A schema-qualified table name. Schema names are validated as plain identifiers at start-up. */
export function table(schema: string, name: string): string {
  return `"${schema}"."${name}"`;
}

/** LangGraph's checkpoint tables, created by `PostgresSaver.setup()` under these names. */
export function checkpointTables(schema: string) {
  return {
    checkpoints: table(schema, 'checkpoints'),
    blobs: table(schema, 'checkpoint_blobs'),
    writes: table(schema, 'checkpoint_writes'),
  };
}

/**
 * The service's own tables: the thread index (each thread's API view, its idempotency key, and an
 * insertion sequence for newest-first listing) and the outbox (one row per sent thread: the key
 * refuses a second send). Run by the database set-up under its advisory lock.
 */
export function serviceTablesMigration(schema: string): string {
  const threads = table(schema, 'email_threads');
  return `
    CREATE TABLE IF NOT EXISTS ${threads} (
      thread_id text PRIMARY KEY,
      seq bigserial NOT NULL UNIQUE,
      status text NOT NULL,
      idempotency_key text UNIQUE,
      view jsonb NOT NULL
    );
    CREATE INDEX IF NOT EXISTS email_threads_status_seq ON ${threads} (status, seq DESC);
    CREATE TABLE IF NOT EXISTS ${table(schema, 'email_outbox')} (
      thread_id text PRIMARY KEY,
      text text NOT NULL,
      sent_at timestamptz NOT NULL
    );`;
}

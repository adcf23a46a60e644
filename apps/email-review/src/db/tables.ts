/** A schema-qualified table name. Schema names are validated as plain identifiers at start-up. */
export function table(schema: string, name: string): string {
  return `"${schema}"."${name}"`;
}

/** pg-boss's schema: derived from the service's, so deployments (and test runs) sharing a database stay apart. */
export function queueSchema(schema: string): string {
  return `${schema.slice(0, 56)}_pgboss`;
}

/**
 * The service's own tables: the thread index (API view, idempotency key, delivery status, insertion
 * order), the delivery records and the mailbox reader's place; the drops upgrade older schemas.
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
    ALTER TABLE ${threads} ADD COLUMN IF NOT EXISTS delivery_status text;
    CREATE INDEX IF NOT EXISTS email_threads_delivery_seq ON ${threads} (delivery_status, seq DESC)
      WHERE delivery_status IS NOT NULL;
    CREATE TABLE IF NOT EXISTS ${table(schema, 'email_deliveries')} (
      thread_id text PRIMARY KEY REFERENCES ${threads} (thread_id),
      message_id text NOT NULL,
      to_address text,
      from_address text,
      subject text NOT NULL,
      in_reply_to text,
      refs text[] NOT NULL,
      body text NOT NULL,
      status text NOT NULL,
      attempts integer NOT NULL,
      last_error text,
      delivered_at timestamptz,
      server_reply text,
      checkpointed boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- pg-boss schedules the retries now (the job's retryDelay), not the record.
    DROP INDEX IF EXISTS ${table(schema, 'email_deliveries_due')};
    ALTER TABLE ${table(schema, 'email_deliveries')} DROP COLUMN IF EXISTS next_attempt_at;
    -- Before logged and no_recipient: the first check allowed queued, delivered and failed only.
    ALTER TABLE ${table(schema, 'email_deliveries')} DROP CONSTRAINT IF EXISTS email_deliveries_status_check;
    -- The thread leases and the orphan recovery's counts are gone: the model work is queued.
    DROP TABLE IF EXISTS ${table(schema, 'email_thread_leases')};
    DROP TABLE IF EXISTS ${table(schema, 'email_thread_recoveries')};
    DROP INDEX IF EXISTS "${schema}".email_deliveries_uncheckpointed;
    CREATE TABLE IF NOT EXISTS ${table(schema, 'email_mailbox_state')} (
      mailbox text NOT NULL,
      uid_validity text NOT NULL,
      last_uid bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (mailbox, uid_validity)
    );`;
}

/**
 * One row per delivery (an event for one endpoint). `seq` orders the deliveries of an
 * endpoint+subject; `body` is the exact signed envelope, so every attempt sends the same bytes.
 * `lease_until` and `leased_by`: the batch attempting a row, until when (see PostgresOutbox).
 */
export function webhookTablesMigration(schema: string): string {
  const table = `"${schema}"."webhook_deliveries"`;
  return `
    CREATE TABLE IF NOT EXISTS ${table} (
      id text PRIMARY KEY,
      seq bigserial NOT NULL,
      endpoint text NOT NULL,
      type text NOT NULL,
      subject text NOT NULL,
      body text NOT NULL,
      status text NOT NULL DEFAULT 'pending',
      attempts int NOT NULL DEFAULT 0,
      last_status int,
      last_error text,
      next_attempt_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      delivered_at timestamptz
    );
    ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS lease_until timestamptz,
      ADD COLUMN IF NOT EXISTS leased_by text;
    -- Room on each page, so that a lease (no indexed column) is a HOT update: no index entries.
    ALTER TABLE ${table} SET (fillfactor = 70);
    CREATE INDEX IF NOT EXISTS webhook_deliveries_line
      ON ${table} (endpoint, subject, seq) WHERE status = 'pending';
    CREATE INDEX IF NOT EXISTS webhook_deliveries_pending
      ON ${table} (endpoint, seq) WHERE status = 'pending';
    CREATE INDEX IF NOT EXISTS webhook_deliveries_seq ON ${table} (status, seq);
    CREATE INDEX IF NOT EXISTS webhook_deliveries_settled ON ${table} (updated_at)
      WHERE status <> 'pending';`;
}

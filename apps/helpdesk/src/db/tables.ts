// Schema names are validated as plain identifiers at start-up.
export const sessionsTable = (schema: string) => `"${schema}"."helpdesk_sessions"`;
export const sessionLeasesTable = (schema: string) => `"${schema}"."helpdesk_session_leases"`;
/** A session's row (or its lease's), by $1–$3. */
export const SESSION_KEY = 'app_name = $1 AND user_id = $2 AND session_id = $3';

/**
 * One row per session: ADK's state and condensed history and the transcript, written together once
 * per finished turn; `updated_at` the last use (TTL), `widget_token_sha256` the hash of the widget's
 * secret. Beside it, one lease row per session with a turn running (sessions/session-leases.ts).
 */
export function sessionTablesMigration(schema: string): string {
  const sessions = sessionsTable(schema);
  return `
    CREATE SCHEMA IF NOT EXISTS "${schema}";
    CREATE TABLE IF NOT EXISTS ${sessions} (
      app_name text NOT NULL,
      user_id text NOT NULL,
      session_id text NOT NULL,
      state jsonb NOT NULL,
      events jsonb NOT NULL,
      transcript jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      widget_token_sha256 text,
      PRIMARY KEY (app_name, user_id, session_id)
    );
    ALTER TABLE ${sessions} ADD COLUMN IF NOT EXISTS widget_token_sha256 text;
    CREATE INDEX IF NOT EXISTS helpdesk_sessions_updated_at ON ${sessions} (updated_at);
    CREATE TABLE IF NOT EXISTS ${sessionLeasesTable(schema)} (
      app_name text NOT NULL,
      user_id text NOT NULL,
      session_id text NOT NULL,
      owner uuid NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (app_name, user_id, session_id)
    );`;
}

/**
 * The operators' queue (one row per conversation waiting for a person or held by one) and the
 * conversations' live events (`id` in commit order: every insert takes EVENTS_LOCK first, so a
 * reader that resumes after an id never skips an event committed later with a smaller one).
 */
export function handoffTablesMigration(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS "${schema}"."helpdesk_handoffs" (
      session_id text PRIMARY KEY,
      state text NOT NULL,
      operator text,
      reason text NOT NULL,
      ticket_id text,
      summary text NOT NULL,
      requested_at timestamptz NOT NULL,
      taken_at timestamptz,
      wait_notified_at timestamptz
    );
    CREATE TABLE IF NOT EXISTS "${schema}"."helpdesk_conversation_events" (
      id bigserial PRIMARY KEY,
      session_id text NOT NULL,
      type text NOT NULL,
      data jsonb NOT NULL,
      at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS helpdesk_conversation_events_session
      ON "${schema}"."helpdesk_conversation_events" (session_id, id);`;
}

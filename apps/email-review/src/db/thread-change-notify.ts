import pg from 'pg';
import type { Logger } from 'pino';
import type { ChangeFeed } from '../changes/change-feed.js';
import { threadChangeSchema } from '../changes/thread-change.js';
import { table } from './tables.js';

/** The NOTIFY channel of one schema's thread changes (deployments sharing a database stay apart). */
export const changeChannel = (schema: string) => `email_threads_${schema}`.slice(0, 63);

/**
 * A trigger on the thread index NOTIFYs every change of a thread's status, revision or delivery
 * status. It fires in the writing transaction, so the notification goes out exactly when the
 * change commits, and every path that writes a thread (create, workflow steps, decisions,
 * deliveries) is covered without each remembering to. The id comes from a sequence, so ids are
 * unique across instances; listeners receive notifications in commit order.
 */
export function threadChangeMigration(schema: string): string {
  const threads = table(schema, 'email_threads');
  const sequence = table(schema, 'email_thread_change_seq');
  const fn = table(schema, 'email_threads_notify');
  const channel = changeChannel(schema).replace(/'/g, "''");
  return `
    CREATE SEQUENCE IF NOT EXISTS ${sequence};
    CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.status IS NOT DISTINCT FROM NEW.status
         AND OLD.view->'revision' IS NOT DISTINCT FROM NEW.view->'revision'
         AND OLD.delivery_status IS NOT DISTINCT FROM NEW.delivery_status THEN
        RETURN NULL;
      END IF;
      PERFORM pg_notify('${channel}', json_build_object(
        'id', nextval('${sequence}')::text,
        'type', CASE TG_OP WHEN 'INSERT' THEN 'thread.created' ELSE 'thread.updated' END,
        'thread_id', NEW.thread_id,
        'status', NEW.status,
        'revision', (NEW.view->>'revision')::int,
        'delivery', NEW.delivery_status)::text);
      RETURN NULL;
    END $$;
    CREATE OR REPLACE TRIGGER email_threads_notify AFTER INSERT OR UPDATE ON ${threads}
      FOR EACH ROW EXECUTE FUNCTION ${fn}();`;
}

export interface ChangeListenerOptions {
  connectionString: string;
  schema: string;
  feed: ChangeFeed;
  logger: Logger;
  /** First wait before reconnecting; doubles up to 10 s. */
  retryBaseMs?: number;
}

/**
 * LISTENs on a dedicated connection (a pooled one could not keep its LISTEN) and feeds every
 * notification to `feed`. A lost connection is replaced with backoff; changes committed while it
 * was gone are not replayed (clients that resume across the gap are told to reload).
 */
export function listenForThreadChanges(options: ChangeListenerOptions) {
  const { logger } = options;
  const base = options.retryBaseMs ?? 250;
  let client: pg.Client | undefined;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = base;
  let lost = false;

  const connect = async () => {
    const next = new pg.Client({ connectionString: options.connectionString });
    client = next;
    next.on('notification', (message) => {
      const parsed = threadChangeSchema.safeParse(JSON.parse(message.payload ?? 'null'));
      if (parsed.success) options.feed.publish(parsed.data);
    });
    next.on('error', (error) => reconnect(next, error));
    next.on('end', () => reconnect(next, new Error('connection ended')));
    try {
      await next.connect();
      await next.query(`LISTEN "${changeChannel(options.schema)}"`);
      if (lost) logger.info('thread change listener reconnected');
      lost = false;
      delay = base;
    } catch (error) {
      reconnect(next, error);
    }
  };

  const reconnect = (dead: pg.Client, error: unknown) => {
    if (stopped || client !== dead) return;
    client = undefined;
    if (!lost)
      logger.warn({ err: error }, 'thread change listener lost its connection; reconnecting');
    lost = true;
    dead.end().catch(() => undefined);
    retryTimer = setTimeout(() => void connect(), delay);
    delay = Math.min(delay * 2, 10_000);
  };

  return {
    start: () => connect(),
    stop: async () => {
      stopped = true;
      clearTimeout(retryTimer);
      await client?.end().catch(() => undefined);
    },
  };
}

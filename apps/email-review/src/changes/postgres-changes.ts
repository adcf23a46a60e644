import { backoffMs } from '@repo/http-kit';
import pg from 'pg';
import type { Logger } from 'pino';
import { threadChangeSchema, type ChangeFeed } from './change-feed.js';
import { table } from '../db/tables.js';

/** The NOTIFY channel of one schema's thread changes (deployments sharing a database stay apart). */
const changeChannel = (schema: string) => `email_threads_${schema}`.slice(0, 63);

/**
 * A trigger on the thread index NOTIFYs each change of a thread's status, revision or delivery
 * status: in the writing transaction, so it goes out when the change commits, whichever path wrote
 * it. Ids come from a sequence (unique across instances); listeners hear them in commit order.
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

/** The listener connection's application_name. */
export const listenerName = (schema: string) => `email-review-changes:${schema}`.slice(0, 63);

const RECONNECTS = { firstMs: 250, maxMs: 10_000 };
/** How often the connection is checked: a silently dropped one raises no error. */
const HEARTBEAT_MS = 10_000;

/**
 * LISTENs on a dedicated connection (a pooled one could not keep its LISTEN) and feeds each
 * notification to `feed`; a lost connection is replaced with backoff, and since what committed
 * meanwhile is not replayed, the feed is told of the gap (`ChangeFeed.gap`).
 */
export function listenForThreadChanges(options: {
  connectionString: string;
  schema: string;
  feed: ChangeFeed;
  logger: Logger;
}) {
  const { logger } = options;
  let client: pg.Client | undefined;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  /** Reconnects since the last LISTEN: the first one of an outage logs it. */
  let failures = 0;
  let listened = false;
  let started: Promise<void> | undefined;
  const heartbeat = setInterval(() => {
    const current = client;
    if (current && listened)
      current.query('SELECT 1').catch((error: unknown) => reconnect(current, error));
  }, HEARTBEAT_MS);
  heartbeat.unref();

  const connect = async () => {
    const next = new pg.Client({
      connectionString: options.connectionString,
      // Named in pg_stat_activity (by schema: deployments sharing a database stay apart).
      application_name: listenerName(options.schema),
      keepAlive: true,
      connectionTimeoutMillis: HEARTBEAT_MS,
      query_timeout: HEARTBEAT_MS,
    });
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
      if (client !== next) return;
      if (listened) {
        logger.info('thread change listener reconnected');
        options.feed.gap();
      }
      listened = true;
      failures = 0;
    } catch (error) {
      reconnect(next, error);
    }
  };

  const reconnect = (dead: pg.Client, error: unknown) => {
    if (stopped || client !== dead) return;
    client = undefined;
    if (failures === 0)
      logger.warn({ err: error }, 'thread change listener lost its connection; reconnecting');
    dead.end().catch(() => undefined);
    retryTimer = setTimeout(() => void connect(), backoffMs(RECONNECTS, (failures += 1)));
  };

  return {
    /** Once: a set-up tried again does not open a second connection. */
    start: () => (started ??= connect()),
    stop: async () => {
      stopped = true;
      clearTimeout(retryTimer);
      clearInterval(heartbeat);
      await client?.end().catch(() => undefined);
    },
  };
}

import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffMs } from '@repo/http-kit';
import type pg from 'pg';
import { subscribes, type Endpoint } from '../config/webhook-settings.js';
import { EndpointSlots } from '../sending/endpoint-slots.js';
import {
  attemptDelivery,
  type AttemptDeps,
  type PendingDelivery,
} from '../sending/attempt-delivery.js';
import {
  envelopeOf,
  type Delivery,
  type InStatement,
  type Outbox,
  type TransactionClient,
  type WebhookEvent,
} from './outbox.js';

export interface PostgresOutboxOptions extends AttemptDeps {
  pool: pg.Pool;
  /** The service's schema (the deliveries table). */
  schema: string;
  /** How often to delete settled deliveries past WEBHOOK_RETENTION_DAYS. */
  sweepMs?: number;
  /** How often an endpoint's worker looks for due deliveries when the last look found none. */
  pollMs?: number;
}

interface DeliveryRow extends PendingDelivery {
  seq: string;
  endpoint: string;
  status: Delivery['status'];
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
}

/** The most lines one batch takes (with their due rows: one lease, one settle for all of them). */
const BATCH_MAX = 100;
/** How long a worker lets deliveries gather after a batch that found some (events wait at most this long more). */
const GATHER_MS = 100;
/** The longest a worker waits between looks while its batches keep failing. */
const MAX_FAILING_POLL_MS = 30_000;
/** A lease's time beyond the attempts it is for: the settle's round trip, clocks a little apart. */
const LEASE_MARGIN_MS = 5_000;
/** Deliveries one statement of the sweep deletes; it goes on batch after batch until it is done. */
const PRUNE_BATCH = 1_000;
/** Pause between two of the sweep's batches, so that a backlog never crowds out the service. */
const PRUNE_PAUSE_MS = 50;

const view = (row: DeliveryRow): Delivery => ({
  id: row.id,
  endpoint: row.endpoint,
  type: row.type,
  subject: row.subject,
  status: row.status,
  attempts: row.attempts,
  last_status: row.last_status,
  last_error: row.last_error,
  next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
  delivered_at: row.delivered_at?.toISOString() ?? null,
});

const COLUMNS = `id, seq, endpoint, type, subject, body, status, attempts, last_status, last_error,
  next_attempt_at, created_at, delivered_at`;

/**
 * The outbox in PostgreSQL, where the deliveries table is the queue. Publishing inserts one row
 * per subscribed endpoint, in one statement: `publish` in the caller's transaction, or
 * `inStatement` inside the very statement that makes the change. Either way the event exists
 * exactly when the change it reports was committed, and it is recorded once: the row is what is
 * listed, retried, kept in order and pruned, and what the workers take.
 *
 * Each endpoint has its own worker per instance, with up to WEBHOOK_CONCURRENCY batches at once
 * (a slow endpoint holds up only its own). A batch takes, in one statement, the endpoint's heads of
 * line that are due (no earlier pending delivery of the same subject) with the due rows after
 * them, and leases them (`lease_until`, `leased_by`), as pg-boss makes a job active until it
 * expires; attempts the lines side by side and each line in order, holding no database
 * connection, stopping a line at a row to be retried and leaving what the lease has no time left
 * for; and settles them in one statement, only where its lease still holds (a retry is the row's
 * `next_attempt_at`, which the next take waits for). The rows of a worker that died are taken
 * again by any instance when their lease runs out. A worker looks again GATHER_MS after a batch
 * that found deliveries, and after `pollMs` after one that found none. A sweep deletes settled
 * deliveries past WEBHOOK_RETENTION_DAYS (see prune).
 */
export class PostgresOutbox implements Outbox {
  private readonly table: string;
  private readonly sql: Record<
    'publish' | 'due' | 'take' | 'settle' | 'prune' | 'pruneUnsendable' | 'list' | 'retry' | 'get',
    string
  >;
  private readonly stopping = new AbortController();
  private readonly slots: EndpointSlots;
  private loops: Promise<void>[] = [];

  constructor(private readonly options: PostgresOutboxOptions) {
    const table = `"${options.schema}"."webhook_deliveries"`;
    this.table = table;
    this.slots = new EndpointSlots(options.settings.concurrency);
    // Pending, its retry time come, and not leased by a batch (or its lease run out).
    const due = (t: string) => `${t}.status = 'pending'
      AND (${t}.next_attempt_at IS NULL OR ${t}.next_attempt_at <= now())
      AND (${t}.lease_until IS NULL OR ${t}.lease_until < now())`;
    this.sql = {
      publish: `WITH ${this.inStatement.ctes(undefined, 1)} SELECT 1`,
      // Whether anything of the endpoint is due: an idle look is one statement, no transaction.
      due: `SELECT 1 FROM ${table} AS d WHERE endpoint = $1 AND ${due('d')} LIMIT 1`,
      // Leases the endpoint's heads of line that are due and not taken by another batch, oldest
      // first, and the due rows of those lines after them: a line's rows are attempted together.
      take: `WITH heads AS (
               SELECT id, subject, seq FROM ${table} AS d WHERE endpoint = $1 AND ${due('d')}
                 AND NOT EXISTS (SELECT 1 FROM ${table} AS e WHERE e.endpoint = d.endpoint
                   AND e.subject = d.subject AND e.seq < d.seq AND e.status = 'pending')
               ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED),
             followers AS (
               SELECT f.id FROM ${table} AS f JOIN heads AS h ON f.subject = h.subject
                 AND f.seq > h.seq WHERE f.endpoint = $1 AND ${due('f')}
                 -- none of the line between them is pending and not due (waiting for its retry)
                 AND NOT EXISTS (SELECT 1 FROM ${table} AS g WHERE g.endpoint = f.endpoint
                   AND g.subject = f.subject AND g.seq > h.seq AND g.seq < f.seq
                   AND g.status = 'pending'
                   AND (g.next_attempt_at > now() OR g.lease_until >= now()))
               FOR UPDATE OF f SKIP LOCKED)
             UPDATE ${table} SET lease_until = now() + $3 * interval '1 millisecond', leased_by = $4
             WHERE id IN (SELECT id FROM heads UNION ALL SELECT id FROM followers)
             RETURNING ${COLUMNS}`,
      // Settles the attempts and frees the rows left unattempted, where this batch's lease holds.
      settle: `WITH released AS (
                 UPDATE ${table} SET lease_until = NULL, leased_by = NULL
                 WHERE id = ANY($9::text[]) AND leased_by = $8)
               UPDATE ${table} AS t SET status = i.status, attempts = i.attempts,
                 last_status = i.last_status, last_error = i.last_error,
                 next_attempt_at = i.next_attempt_at, delivered_at = i.delivered_at,
                 lease_until = NULL, leased_by = NULL, updated_at = now()
               FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::text[],
                 $6::timestamptz[], $7::timestamptz[])
                 AS i(id, status, attempts, last_status, last_error, next_attempt_at, delivered_at)
               WHERE t.id = i.id AND t.leased_by = $8`,
      // Settled deliveries past the retention, a batch of them; rows another instance's sweep
      // holds are left to it.
      prune: `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE status <> 'pending'
               AND updated_at < now() - $1 * interval '1 millisecond'
               LIMIT ${PRUNE_BATCH} FOR UPDATE SKIP LOCKED)`,
      // Pending deliveries of an endpoint no longer configured, untouched for the retention: no
      // worker will ever send them (an endpoint's own worker touches its pending rows at least
      // every retry, and retries end long before).
      pruneUnsendable: `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table}
                          WHERE status = 'pending' AND endpoint <> ALL($2::text[])
                            AND updated_at < now() - $1 * interval '1 millisecond'
                          LIMIT ${PRUNE_BATCH} FOR UPDATE SKIP LOCKED)`,
      list: `SELECT ${COLUMNS} FROM ${table} WHERE ($1::text IS NULL OR status = $1)
             ORDER BY seq DESC LIMIT $2`,
      retry: `UPDATE ${table} SET status = 'pending', next_attempt_at = NULL, created_at = now(),
                updated_at = now() WHERE id = $1 AND status = 'failed' RETURNING ${COLUMNS}`,
      get: `SELECT ${COLUMNS} FROM ${table} WHERE id = $1`,
    };
  }

  get enabled() {
    return this.options.settings.endpoints.length > 0;
  }

  /** One statement: the deliveries (in `transaction` when given). */
  async publish(events: readonly WebhookEvent[], transaction?: TransactionClient): Promise<void> {
    const params = this.enabled ? this.inStatement.params(events) : undefined;
    if (!params) return;
    await (transaction ?? this.options.pool).query(this.sql.publish, params);
  }

  /** Publishing inside another statement: one row per event and subscribed endpoint. */
  readonly inStatement: InStatement = {
    ctes: (guard, first) => {
      const p = (i: number) => `$${first + i}`;
      return `webhook_rows AS (
          INSERT INTO ${this.table} (id, endpoint, type, subject, body)
          SELECT * FROM unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[],
            ${p(4)}::text[])${guard ? ` WHERE EXISTS (SELECT 1 FROM ${guard})` : ''})`;
    },
    params: (events) => {
      const rows: Array<{ id: string; endpoint: string; event: WebhookEvent; body: string }> = [];
      for (const event of events) {
        const body = envelopeOf(event, event.timestamp ?? new Date());
        for (const endpoint of this.options.settings.endpoints) {
          if (subscribes(endpoint, event.type)) {
            rows.push({ id: `msg_${randomUUID()}`, endpoint: endpoint.id, event, body });
          }
        }
      }
      if (rows.length === 0) return undefined;
      return [
        rows.map((row) => row.id),
        rows.map((row) => row.endpoint),
        rows.map((row) => row.event.type),
        rows.map((row) => row.event.subject),
        rows.map((row) => row.body),
      ];
    },
  };

  async list(filter: { status?: Delivery['status']; limit: number }): Promise<Delivery[]> {
    const { rows } = await this.options.pool.query<DeliveryRow>(this.sql.list, [
      filter.status ?? null,
      filter.limit,
    ]);
    return rows.map(view);
  }

  /** Back to pending and due now: the endpoint's worker takes it at its next look. */
  async retry(id: string) {
    const { rows } = await this.options.pool.query<DeliveryRow>(this.sql.retry, [id]);
    const row = rows[0];
    if (!row) {
      const found = await this.options.pool.query<DeliveryRow>(this.sql.get, [id]);
      return found.rows[0] && { retried: false, delivery: view(found.rows[0]) };
    }
    return { retried: true, delivery: view(row) };
  }

  /**
   * Starts the workers and the sweep. The table is the service's to create
   * (webhookTablesMigration, in its own set-up under its set-up lock). The sweep runs with no
   * endpoint configured too: what an earlier configuration left still goes.
   */
  async start(): Promise<void> {
    // A start-up that retries (the database was away) may call this again.
    if (this.loops.length > 0) return;
    for (const endpoint of this.options.settings.endpoints) this.loops.push(this.work(endpoint));
    this.loops.push(this.sweep());
  }

  async close(): Promise<void> {
    this.stopping.abort();
    await Promise.all(this.loops);
  }

  /**
   * One endpoint's worker: takes a batch (deliverBatch) and, while batches find deliveries, takes
   * the next GATHER_MS later, up to WEBHOOK_CONCURRENCY batches at once (a batch waiting on a slow
   * attempt does not hold the others up); after a batch that found none it waits `pollMs` (or for
   * a running batch to end). Under load a batch holds what gathered since the last one, so its
   * statements are shared by many deliveries. The attempts of all batches share the endpoint's
   * WEBHOOK_CONCURRENCY slots. Every error is caught and logged; the rows of a batch that failed are
   * taken again when their lease runs out.
   */
  private async work(endpoint: Endpoint) {
    const { logger, settings } = this.options;
    const pollMs = this.options.pollMs ?? 250;
    const signal = this.stopping.signal;
    const running = new Set<Promise<number>>();
    let idle = true;
    // Batches failed in a row (the database away): logged once, looked at less and less often.
    let failures = 0;
    while (!signal.aborted) {
      if (running.size >= settings.concurrency) {
        await Promise.race(running);
        continue;
      }
      const batch: Promise<number> = this.deliverBatch(endpoint, idle)
        .then((taken) => {
          if (failures > 0) logger.info({ endpoint: endpoint.id }, 'webhook batches work again');
          failures = 0;
          return taken;
        })
        .catch((error: unknown) => {
          failures += 1;
          if (failures === 1) {
            logger.warn({ err: error, endpoint: endpoint.id }, 'webhook batch failed; taken again');
          }
          return 0;
        })
        .finally(() => running.delete(batch));
      running.add(batch);
      // The take is the batch's first statement: once it is answered, the next batch would find
      // only what arrives after it.
      const taken = await Promise.race([batch, sleep(GATHER_MS).then(() => -1)]);
      idle = taken === 0;
      const wait =
        failures > 0
          ? backoffMs({ firstMs: pollMs, maxMs: MAX_FAILING_POLL_MS }, failures + 1)
          : idle
            ? pollMs
            : GATHER_MS;
      await Promise.race([
        sleep(wait, undefined, { signal }).catch(() => undefined),
        ...(idle && failures === 0 ? [...running] : []),
      ]);
    }
    await Promise.all(running);
  }

  /**
   * One batch of an endpoint: leases its due heads of line and what follows them, attempts the
   * lines side by side and each line in order (holding no connection), and settles them in one
   * statement. An attempt starts only while the lease has a whole timeout left; the rows it has no
   * time for are freed for the next batch. Answers how many it took. After a look that found
   * nothing (`probe`), it first asks whether anything is due.
   */
  private async deliverBatch(endpoint: Endpoint, probe: boolean): Promise<number> {
    const { pool, settings } = this.options;
    if (probe && (await pool.query(this.sql.due, [endpoint.id])).rowCount === 0) return 0;
    const lease = `lease_${randomUUID()}`;
    const leaseMs = 2 * settings.timeoutMs + LEASE_MARGIN_MS;
    const leasedUntil = Date.now() + leaseMs;
    const taken = await pool.query<DeliveryRow>(this.sql.take, [
      endpoint.id,
      BATCH_MAX,
      leaseMs,
      lease,
    ]);
    if (taken.rows.length === 0) return 0;
    // Lines side by side (sharing the endpoint's slots), each line's rows in order; a line stops
    // at a row that is to be retried: the rest of it waits, pending, behind that row.
    const lines = new Map<string, DeliveryRow[]>();
    for (const row of taken.rows.sort((a, b) => Number(a.seq) - Number(b.seq))) {
      lines.set(row.subject, [...(lines.get(row.subject) ?? []), row]);
    }
    const attempted = (
      await Promise.all(
        [...lines.values()].map(async (line) => {
          const done = [];
          for (const row of line) {
            const after = await this.slots.run(endpoint.id, async () =>
              Date.now() + settings.timeoutMs + LEASE_MARGIN_MS <= leasedUntil
                ? attemptDelivery(this.options, endpoint, row)
                : undefined,
            );
            if (!after) break;
            done.push({ id: row.id, ...after });
            if (after.status === 'pending') break;
          }
          return done;
        }),
      )
    ).flat();
    const settled = new Set(attempted.map((a) => a.id));
    await pool.query(this.sql.settle, [
      attempted.map((a) => a.id),
      attempted.map((a) => a.status),
      attempted.map((a) => a.attempts),
      attempted.map((a) => a.last_status),
      attempted.map((a) => a.last_error),
      attempted.map((a) => a.next_attempt_at),
      attempted.map((a) => a.delivered_at),
      lease,
      taken.rows.filter((row) => !settled.has(row.id)).map((row) => row.id),
    ]);
    return taken.rows.length;
  }

  /**
   * One sweep now, batch after batch until nothing past the retention is left (or the outbox
   * closes): settled deliveries, and pending ones no configured endpoint will send. Answers how
   * many it deleted. The sweep runs this every `sweepMs`.
   */
  async prune(): Promise<number> {
    const { pool, settings } = this.options;
    const configured = settings.endpoints.map((endpoint) => endpoint.id);
    let deleted = 0;
    for (const [sql, params] of [
      [this.sql.prune, [settings.retentionMs]],
      [this.sql.pruneUnsendable, [settings.retentionMs, configured]],
    ] as const) {
      for (;;) {
        const batch = (await pool.query(sql, [...params])).rowCount ?? 0;
        deleted += batch;
        if (batch < PRUNE_BATCH || this.stopping.signal.aborted) break;
        await sleep(PRUNE_PAUSE_MS);
      }
    }
    return deleted;
  }

  private async sweep() {
    const signal = this.stopping.signal;
    const every = this.options.sweepMs ?? 30_000;
    while (!signal.aborted) {
      await sleep(every, undefined, { signal }).catch(() => undefined);
      if (signal.aborted) return;
      try {
        await this.prune();
      } catch (error) {
        this.options.logger.warn({ err: error }, 'webhook sweep failed');
      }
    }
  }
}

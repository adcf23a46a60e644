import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type pg from 'pg';

const TRACED = Symbol('tracedQueries');

type Traceable = pg.PoolClient & { [TRACED]?: true };

/** `SELECT`, `INSERT`, … — the statement's first word, as the span's name. */
function operationOf(text: string | undefined): string {
  return /^\s*([A-Za-z]+)/.exec(text ?? '')?.[1]?.toUpperCase() ?? 'QUERY';
}

/**
 * A span for each query run on the pool's clients (pool.query included, which runs on one), with
 * `db.system.name=postgresql` and the statement's text (`$n` placeholders, never the values). Each
 * client is wrapped once, when it is first checked out. Call only with tracing on.
 */
export function traceQueries(pool: pg.Pool): void {
  const tracer = trace.getTracer('@repo/pg-kit');
  pool.on('acquire', (acquired) => {
    const client = acquired as Traceable;
    if (client[TRACED]) return;
    client[TRACED] = true;
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const first = args[0] as string | { text?: string; submit?: unknown } | undefined;
      // Submittables (cursors, streams) go through untraced.
      if (typeof first === 'object' && first?.submit) return query(...args);
      const text = typeof first === 'string' ? first : first?.text;
      const span = tracer.startSpan(operationOf(text), {
        kind: SpanKind.CLIENT,
        attributes: { 'db.system.name': 'postgresql', 'db.query.text': text ?? '' },
      });
      const end = (error?: unknown) => {
        if (error)
          span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        span.end();
      };
      const callback = args.at(-1);
      // pg-pool's own pool.query calls its client in callback style.
      if (typeof callback === 'function') {
        args[args.length - 1] = (error: unknown, result: unknown) => {
          end(error);
          (callback as (error: unknown, result: unknown) => void)(error, result);
        };
        return query(...args);
      }
      return (query(...args) as Promise<unknown>).then(
        (result) => {
          end();
          return result;
        },
        (error: unknown) => {
          end(error);
          throw error;
        },
      );
    }) as typeof client.query;
  });
}

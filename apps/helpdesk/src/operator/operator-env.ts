import { intFromEnv } from '@repo/llm-config';
import { z } from 'zod';

/** The operator console's settings, part of the service's env schema (src/env.ts). */
export const operatorEnv = {
  /** Who may use the console: actor names (API_TOKENS' names, JWT email or subject); default nobody. */
  OPERATORS: z
    .string()
    .trim()
    .default('')
    .transform((value) => value.split(/[\s,]+/).filter(Boolean)),
  /** How long a conversation waits for a person before the customer is told (it stays queued). */
  HANDOFF_WAIT_SECONDS: intFromEnv(120),
};

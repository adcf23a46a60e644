import { z } from 'zod';
import { ConfigError } from './config-error.js';

type Env = Record<string, string | undefined>;

/**
 * Parses `env` with `schema` and turns the first failure into a one-line ConfigError naming the variable.
 * Empty strings count as unset, so `KEY=` in a .env file is "missing", not a valid value.
 */
export function parseEnv<T extends z.ZodType>(schema: T, env: Env): z.infer<T> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const variable = String(issue.path[0] ?? 'environment');
  const reason =
    issue.code === 'invalid_type' && cleaned[variable] === undefined
      ? 'is required'
      : issue.message;
  throw new ConfigError(`${variable} ${reason}`);
}

/**
 * The largest number an environment variable may give: Node's timers take no longer delay (a
 * larger one fires after 1 ms, with a warning), and no count here needs more.
 */
export const ENV_INT_MAX = 2_147_483_647;

/** A positive integer read from an environment variable, with a default. */
export const intFromEnv = (defaultValue: number) =>
  z.coerce.number().int().positive().max(ENV_INT_MAX).default(defaultValue);

/** A non-negative integer (0 allowed, e.g. "no retries"), with a default. */
export const countFromEnv = (defaultValue: number) =>
  z.coerce.number().int().min(0).max(ENV_INT_MAX).default(defaultValue);

export const urlFromEnv = () =>
  z
    .url({ message: 'must be an absolute http(s) URL' })
    .refine((value) => /^https?:\/\//.test(value), 'must be an absolute http(s) URL')
    .optional();

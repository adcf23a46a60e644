import { ConfigError } from '@repo/llm-config';
import type { z } from 'zod';

/** `categories[2].name` from zod's path. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((key, i) =>
      typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`,
    )
    .join('');
}

/**
 * The first problem of a profile as one line naming the field ("categories[2].name: expected a lowercase
 * identifier"), and the variable that set it when it came from the environment.
 */
export function profileError(error: z.ZodError, fromEnv: Record<string, string>): ConfigError {
  const issue = error.issues[0]!;
  const path =
    issue.code === 'unrecognized_keys'
      ? [...issue.path, issue.keys[0] ?? '']
      : (issue.path as PropertyKey[]);
  const message = issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message;
  const field = fieldPath(path);
  const variable = fromEnv[String(path[0])];
  const where = !field ? '' : variable ? `${variable} (${field}): ` : `${field}: `;
  return new ConfigError(`support profile: ${where}${message}`);
}

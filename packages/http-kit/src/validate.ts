import type { z } from 'zod';

/**
 * Parses a request part (body, params, query) with a zod schema. A failure throws the ZodError,
 * which the error middleware answers as 400 with the failing fields.
 */
export function validate<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  return schema.parse(value);
}

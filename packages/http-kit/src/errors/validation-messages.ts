import type { z } from 'zod';

type ErrorMap = NonNullable<NonNullable<Parameters<z.ZodType['parse']>[1]>['error']>;

/**
 * For a value that is missing, zod's own words name a type ("Invalid input: expected string, received
 * undefined"); a client needs to hear what is missing. Given to every parse of a request's params, query and
 * body; a schema's own message still wins.
 */
export const missingValueMessages: ErrorMap = (issue) => {
  if (issue.code !== 'invalid_type' || issue.input !== undefined) return undefined;
  const path = issue.path ?? [];
  return path.length === 0
    ? 'A request body is required'
    : `\`${path.map(String).join('.')}\` is required`;
};

/** Messages that already say which field they are about, so the problem's detail needs no `path:` before them. */
export const namesItsField = (message: string) =>
  /^(`[^`]+`|A request body) is required$/.test(message);

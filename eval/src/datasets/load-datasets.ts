import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import {
  chatCaseSchema,
  emailCaseSchema,
  userText,
  type ChatCase,
  type EmailCase,
} from './schema.js';

/** Parses a JSONL file line by line; an error names the file, the line and the field. */
export function readJsonl<T extends z.ZodType>(file: string, schema: T): z.infer<T>[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const cases: z.infer<T>[] = [];
  lines.forEach((line, index) => {
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new Error(`${file}:${index + 1}: not JSON (${(error as Error).message})`);
    }
    const result = schema.safeParse(json);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      throw new Error(`${file}:${index + 1}: ${issue.path.join('.') || 'case'}: ${issue.message}`);
    }
    cases.push(result.data);
  });
  return cases;
}

function assertUnique(file: string, what: string, values: string[]): void {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value))
      throw new Error(`${file}: two cases share the ${what} ${JSON.stringify(value)}`);
    seen.add(value);
  }
}

/**
 * The email cases. Ids and inbound texts are unique: provider requests are attributed to their case
 * by the text they carry (tokens, cassette misses).
 */
export function loadEmailCases(file: string): EmailCase[] {
  const cases = readJsonl(file, emailCaseSchema);
  assertUnique(
    file,
    'id',
    cases.map((c) => c.id),
  );
  assertUnique(
    file,
    'email text',
    cases.map((c) => c.email?.inbound ?? c.raw_mime ?? ''),
  );
  return cases;
}

/** The chat cases; every user message is unique across the set, for the same reason. */
export function loadChatCases(file: string): ChatCase[] {
  const cases = readJsonl(file, chatCaseSchema);
  assertUnique(
    file,
    'eval_id',
    cases.map((c) => c.eval_id),
  );
  assertUnique(
    file,
    'user message',
    cases.flatMap((c) => c.conversation.map(userText)),
  );
  return cases;
}

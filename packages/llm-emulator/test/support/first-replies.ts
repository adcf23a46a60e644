import { decide } from '../../src/model/decide.js';
import type { ModelTask, Turn } from '../../src/model/task.js';
import { EMAIL_REVIEW_CATEGORIES } from './email-review-categories.js';

// The requests behind the replies a new user meets first: email-review's classification and draft, helpdesk's
// specialists after their tool.
export const DRAFT_SYSTEM =
  'You draft replies to customer emails for a support team.\nReply with the email body only, without a subject line.';
export const CLASSIFY_SYSTEM = 'You triage inbound customer emails for a support team.';
export const CLASSIFICATION = {
  type: 'object',
  properties: {
    category: { type: 'string', enum: EMAIL_REVIEW_CATEGORIES },
    urgency: { type: 'string', enum: ['low', 'normal', 'high'] },
    summary: { type: 'string' },
  },
  required: ['category', 'urgency', 'summary'],
};

export function task(turns: Turn[], overrides: Partial<ModelTask> = {}): ModelTask {
  return {
    system: DRAFT_SYSTEM,
    turns,
    tools: [],
    toolMode: 'auto',
    allowedTools: [],
    output: { kind: 'text' },
    ...overrides,
  };
}

export function textOf(t: ModelTask): string {
  const decision = decide(t);
  if (decision.kind !== 'text') throw new Error(`expected text, got ${JSON.stringify(decision)}`);
  return decision.text;
}

export const draftFor = (email: string) => textOf(task([{ role: 'user', text: email }]));

export const classify = (email: string) =>
  JSON.parse(
    textOf(
      task([{ role: 'user', text: email }], {
        system: CLASSIFY_SYSTEM,
        output: { kind: 'json', schema: CLASSIFICATION },
      }),
    ),
  ) as { category: string; urgency: string; summary: string };

/** A specialist's answer after its tool returned `result`. */
export const answerAfter = (name: string, result: unknown) =>
  textOf(
    task(
      [
        { role: 'user', text: 'Please help.' },
        { role: 'assistant', text: '', toolCalls: [{ name, args: {} }] },
        { role: 'tool', name, result },
      ],
      { system: 'You are the billing specialist.' },
    ),
  );

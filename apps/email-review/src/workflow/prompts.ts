import type { SearchHit } from '@repo/knowledge';
import { DEFAULT_PROFILE, loadPrompts, type SupportPrompts } from '@repo/support-profile';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { UsedGuideline } from '../guidelines/guideline.js';
import type { Classification } from './classification.js';
import type { EarlierExchange } from './state.js';

/** The prompts the workflow uses: support-profile's, rendered from the service's profile. */
export type EmailPrompts = Pick<SupportPrompts, 'classify' | 'draft' | 'redraft'>;

/** The package's default prompts, without a profile. */
export const DEFAULT_PROMPTS: EmailPrompts = loadPrompts(DEFAULT_PROFILE);

/** The email as the model reads it: its From and Subject lines when known, then the text. */
function emailText(inbound: string, subject?: string | null, from?: string | null): string {
  const headers = [from && `From: ${from}`, subject && `Subject: ${subject}`].filter(Boolean);
  return headers.length > 0 ? `${headers.join('\n')}\n\n${inbound}` : inbound;
}

export function classifyMessages(
  inbound: string,
  subject?: string | null,
  from?: string | null,
  prompts: Pick<EmailPrompts, 'classify'> = DEFAULT_PROMPTS,
): ChatCompletionMessageParam[] {
  return [
    { role: 'system', content: prompts.classify },
    { role: 'user', content: emailText(inbound, subject, from) },
  ];
}

/**
 * The passages retrieved for the email, each under its `[kb:slug]` (the citation the model writes);
 * with none, the rule to promise a check rather than invent an answer; no help center: nothing.
 */
export function helpCenterSection(passages: readonly SearchHit[] | undefined): string {
  if (passages === undefined) return '';
  if (passages.length === 0)
    return (
      '\n\nNo help center article answers this email: do not invent an answer; ' +
      'say the team will check and get back to the customer.'
    );
  const blocks = passages.map(
    (hit) =>
      `[kb:${hit.slug}] ${hit.title}${hit.heading ? ` › ${hit.heading}` : ''}\n${hit.passage.trim()}`,
  );
  return (
    '\n\nHelp center passages for this email (answer from them where they answer it, and cite each ' +
    'one you use as [kb:slug] right after what it supports; cite nothing else):\n' +
    `${blocks.join('\n\n')}\nEnd of the help center passages.\n` +
    'Where they do not answer the email, do not invent an answer: say the team will check and get back to the customer.'
  );
}

/** The reviewer guidelines as the draft prompt gives them (nothing when there are none). */
function guidelinesSection(guidelines: readonly UsedGuideline[] | undefined): string {
  if (!guidelines?.length) return '';
  return (
    '\n\nReviewer guidelines for this customer (learned from our reviewers’ edits; follow them):\n' +
    guidelines.map((g) => `- ${g.rule}`).join('\n')
  );
}

export interface DraftInput {
  inbound: string;
  subject?: string | null;
  from?: string | null;
  classification: Classification | null;
  /** The earlier exchange this email answers: given as the conversation's first two turns. */
  earlier?: EarlierExchange | null;
  /** On a redraft: the draft the reviewer saw and what they asked to change. */
  previousDraft?: string | null;
  instructions?: string | null;
  /** The help center passages retrieved for the email (none: no help center). */
  passages?: readonly SearchHit[] | undefined;
  /** The reviewer guidelines for the email's sender, domain and category. */
  guidelines?: readonly UsedGuideline[] | undefined;
}

export function draftMessages(
  input: DraftInput,
  prompts: Pick<EmailPrompts, 'draft' | 'redraft'> = DEFAULT_PROMPTS,
): ChatCompletionMessageParam[] {
  // The email goes alone in the user turn; what we know about it goes to the system prompt.
  const context = input.classification
    ? `\n\nThe email was classified as category ${input.classification.category}, ` +
      `urgency ${input.classification.urgency}. Summary: ${input.classification.summary}`
    : '';
  const messages: ChatCompletionMessageParam[] = [
    {
      role: 'system',
      content:
        prompts.draft +
        context +
        helpCenterSection(input.passages) +
        guidelinesSection(input.guidelines),
    },
    ...(input.earlier
      ? [
          { role: 'user' as const, content: input.earlier.email },
          { role: 'assistant' as const, content: input.earlier.reply },
        ]
      : []),
    { role: 'user', content: emailText(input.inbound, input.subject, input.from) },
  ];
  if (input.instructions) {
    if (input.previousDraft) messages.push({ role: 'assistant', content: input.previousDraft });
    messages.push({ role: 'user', content: prompts.redraft(input.instructions) });
  }
  return messages;
}

import { z } from 'zod';

const text = z.string().min(1);
const slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a help center slug');
const language = z.string().regex(/^[a-z]{2}$/, 'an ISO 639-1 code');

/** What a reply (a draft or a chat answer) must and must not say. */
const replyExpectations = {
  /** `[kb:slug]` citations the reply must carry (the help center's article slugs). */
  kb_cites: z.array(slug).default([]),
  /** Facts that must appear (case-insensitive substrings). */
  facts: z.array(text).default([]),
  /** Phrases that must not appear: promises, other customers' data (case-insensitive substrings). */
  forbidden: z.array(text).default([]),
  /** A reply a good agent would write, for the similarity score. */
  golden_reply: text.optional(),
};

/** One line of datasets/email.jsonl: an email in (JSON fields or raw MIME) and what should come out. */
export const emailCaseSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    /** What the case checks, in a few words (shown in the report). */
    about: text,
    email: z
      .object({ inbound: text, from: text.optional(), subject: text.optional() })
      .strict()
      .optional(),
    /** A whole message as received (`message/rfc822`), instead of `email`. */
    raw_mime: text.optional(),
    expected: z
      .object({
        category: text,
        urgency: z.enum(['low', 'normal', 'high']).optional(),
        language,
        ...replyExpectations,
      })
      .strict(),
  })
  .strict()
  .refine((c) => (c.email ? 1 : 0) + (c.raw_mime ? 1 : 0) === 1, {
    message: 'exactly one of email and raw_mime',
  });
export type EmailCase = z.infer<typeof emailCaseSchema>;

/** One turn, in the shape of ADK's eval sets' `conversation` entries. */
const turnSchema = z
  .object({
    user_content: z
      .object({ role: z.literal('user'), parts: z.array(z.object({ text })).length(1) })
      .strict(),
    /** The specialist that must answer this turn. */
    expected_agent: z.enum(['coordinator', 'billing', 'technical', 'escalation']),
    /** ADK's `intermediate_data.tool_uses`: the calls expected in order; `args` lists the arguments checked. */
    intermediate_data: z
      .object({
        tool_uses: z
          .array(z.object({ name: text, args: z.record(z.string(), z.unknown()).default({}) }))
          .default([]),
      })
      .strict()
      .default({ tool_uses: [] }),
    final_response: z
      .object({ role: z.literal('model'), parts: z.array(z.object({ text })).length(1) })
      .strict()
      .optional(),
    ...replyExpectations,
  })
  .strict();

/** One line of datasets/chat.jsonl: a conversation (ADK's `eval_cases[i]` with our expectations). */
export const chatCaseSchema = z
  .object({
    eval_id: z.string().regex(/^[a-z0-9-]+$/),
    about: text,
    conversation: z.array(turnSchema).min(1),
    /** Whether the conversation must end with a ticket (the escalation agent's create_ticket). */
    escalation: z.boolean(),
    language,
  })
  .strict();
export type ChatCase = z.infer<typeof chatCaseSchema>;
export type ChatTurn = ChatCase['conversation'][number];

export const userText = (turn: ChatTurn): string => turn.user_content.parts[0]!.text;

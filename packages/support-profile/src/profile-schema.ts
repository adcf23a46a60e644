import { z } from 'zod';

const IDENTIFIER = /^[a-z][a-z0-9_]{0,39}$/;

const oneLine = (max: number) =>
  z
    .string({ error: 'expected text' })
    .trim()
    .min(1, { error: 'expected text, not an empty value' })
    .max(max, { error: `expected at most ${max} characters` })
    .refine((text) => !/[\r\n]/.test(text), { error: 'expected a single line' });

const paragraph = (max: number) =>
  z
    .string({ error: 'expected text' })
    .trim()
    .min(1, { error: 'expected text, not an empty value' })
    .max(max, { error: `expected at most ${max} characters` });

/** A category or an urgency: the value the model answers with, and what it means (shown to the model). */
const labelSchema = z.strictObject({
  name: z
    .string({ error: 'expected a lowercase identifier' })
    .regex(IDENTIFIER, { error: 'expected a lowercase identifier (a-z, 0-9, _; at most 40)' }),
  description: oneLine(300).optional(),
});

export type Label = z.infer<typeof labelSchema>;

/** A list of labels whose names are unique; the error names the repeated entry. */
const labelList = (min: number, max: number) =>
  z
    .array(labelSchema, { error: 'expected a list of { name, description }' })
    .min(min, { error: `expected at least ${min} entries` })
    .max(max, { error: `expected at most ${max} entries` })
    .superRefine((labels, ctx) => {
      const seen = new Set<string>();
      labels.forEach((label, index) => {
        if (seen.has(label.name))
          ctx.addIssue({
            code: 'custom',
            path: [index, 'name'],
            message: `"${label.name}" is listed twice`,
          });
        seen.add(label.name);
      });
    });

/** `customer` (answer in the customer's language) or the name of one language to always answer in. */
const replyLanguageSchema = z
  .string({ error: 'expected "customer" or a language name' })
  .trim()
  .regex(/^\p{L}[\p{L} ()-]{1,39}$/u, { error: 'expected "customer" or a language name' });

/**
 * A support team's company, voice and categories: the file behind SUPPORT_PROFILE_FILE (see README.md).
 * Every field is optional; an absent one keeps the default (DEFAULT_PROFILE).
 */
export const supportProfileSchema = z.strictObject({
  company_name: oneLine(100).optional(),
  product_name: oneLine(100).optional(),
  product_context: paragraph(1000).optional(),
  signature: paragraph(500).optional(),
  tone: oneLine(200).optional(),
  style_rules: z
    .array(oneLine(300), { error: 'expected a list of rules' })
    .max(20, { error: 'expected at most 20 rules' })
    .optional(),
  reply_language: replyLanguageSchema.optional(),
  categories: labelList(2, 30).optional(),
  urgencies: labelList(2, 10).optional(),
});

/** The profile as written (every field optional). */
export type SupportProfileInput = z.infer<typeof supportProfileSchema>;

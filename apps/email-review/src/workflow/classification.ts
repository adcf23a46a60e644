import { z } from 'zod';
import { cutToCodePoints, storableText } from './model-text.js';

/**
 * The closed set of categories the classifier chooses from (documented in the README).
 * Adding one is an API change: clients filter and route on these values.
 */
export const CATEGORIES = [
  'billing',
  'technical_support',
  'account',
  'sales',
  'complaint',
  'feedback',
  'spam',
  'other',
] as const;

export const URGENCIES = ['low', 'normal', 'high'] as const;

export const categorySchema = z.enum(CATEGORIES);
export const urgencySchema = z.enum(URGENCIES);

/** What the classify step produces; also the model's structured-output schema. */
export const classificationSchema = z.object({
  category: categorySchema.describe('The single category that best fits the email.'),
  urgency: urgencySchema.describe('How soon the sender needs an answer.'),
  summary: z.string().describe('One line, at most 200 characters, saying what the sender wants.'),
});

export type Classification = z.infer<typeof classificationSchema>;

const SUMMARY_MAX = 200;

/**
 * Models sometimes answer with several lines or run long; the API promises one short line, of at most
 * 200 characters (code points, so an emoji is never cut in half).
 */
export function oneLineSummary(summary: string): string {
  return cutToCodePoints(storableText(summary).replace(/\s+/g, ' ').trim(), SUMMARY_MAX);
}

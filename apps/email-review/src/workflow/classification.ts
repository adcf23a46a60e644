import { DEFAULT_PROFILE, type SupportProfile } from '@repo/support-profile';
import { z } from 'zod';
import { cutToCodePoints, storableText } from './model-text.js';

/** The labels a service classifies with: the profile's, or DEFAULT_LABELS. */
export type Labels = Pick<SupportProfile, 'categories' | 'urgencies'>;

export function labelsOf(profile: SupportProfile): Labels {
  return { categories: profile.categories, urgencies: profile.urgencies };
}

/** The labels without a profile (support-profile's defaults); a profile replaces them. */
export const DEFAULT_LABELS = labelsOf(DEFAULT_PROFILE);

export const CATEGORIES = DEFAULT_LABELS.categories.map((label) => label.name);

const names = (labels: Labels['categories']) =>
  labels.map((label) => label.name) as [string, ...string[]];

/** A stored thread's category or urgency: one of the labels configured when it was classified. */
export const categorySchema = z
  .string()
  .describe('One of the configured categories (GET /labels).');
export const urgencySchema = z.string().describe('One of the configured urgencies (GET /labels).');

/** What the classify step produces with `labels`; also the model's structured-output schema. */
export function classificationSchemaFor(labels: Labels) {
  return z.object({
    category: z
      .enum(names(labels.categories))
      .describe('The single category that best fits the email.'),
    urgency: z.enum(names(labels.urgencies)).describe('How soon the sender needs an answer.'),
    summary: z.string().describe('One line, at most 200 characters, saying what the sender wants.'),
  });
}

export type Classification = z.infer<ReturnType<typeof classificationSchemaFor>>;

const SUMMARY_MAX = 200;

/** Models may answer in several lines or run long; the API promises one line of ≤ 200 code points. */
export function oneLineSummary(summary: string): string {
  return cutToCodePoints(storableText(summary).replace(/\s+/g, ' ').trim(), SUMMARY_MAX);
}

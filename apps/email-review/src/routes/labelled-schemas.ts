import { z } from 'zod';
import { GROUNDING_STATUSES } from '../knowledge/grounding.js';
import { threadHistorySchema } from '../threads/thread-history.js';
import { threadSchema } from '../threads/thread.js';
import { classificationSchemaFor, type Labels } from '../workflow/classification.js';
import { listThreadsQuery } from './thread-schemas.js';

const labelSchema = z.object({ name: z.string(), description: z.string().optional() });

export const labelsAnswerSchema = z.object({
  categories: z.array(labelSchema).describe('What the classifier chooses from, in order.'),
  urgencies: z.array(labelSchema),
});

/**
 * The thread schemas as this service documents and validates them: the classification's category
 * and urgency enumerate the profile's labels, and the list filters by them.
 */
export function labelledSchemas(labels: Labels) {
  const thread = threadSchema.extend({
    classification: classificationSchemaFor(labels).nullable(),
  });
  const categories = labels.categories.map((label) => label.name) as [string, ...string[]];
  return {
    thread,
    threadList: z.object({ items: z.array(thread), next_cursor: z.string().nullable() }),
    history: threadHistorySchema,
    listQuery: listThreadsQuery.extend({
      category: z.enum(categories).optional().describe('Only threads classified so.'),
      grounding: z
        .enum(GROUNDING_STATUSES)
        .optional()
        .describe(
          'Only threads whose latest model draft is `grounded` in the help center, or `none`: flagged, it cites no article.',
        ),
    }),
  };
}

export type LabelledSchemas = ReturnType<typeof labelledSchemas>;

import { z } from 'zod';
import { REJECT_REASONS, type DecisionFilter, type DecisionRecord } from './quality-ledger.js';

const figuresSchema = z.object({
  decided: z.number().int(),
  approved: z.number().int(),
  approved_unedited: z.number().int(),
  rejected: z.number().int(),
  unedited_share: z
    .number()
    .nullable()
    .describe('Approved as drafted, over all approvals (null: none yet).'),
  edit_distance: z.object({
    count: z.number().int().describe('Approvals measured (one distance each, 0 when unedited).'),
    mean: z.number().nullable(),
    median: z.number().nullable(),
  }),
  decision_seconds_median: z
    .number()
    .nullable()
    .describe('From the model’s draft to the decision.'),
  reject_reasons: z.array(
    z.object({
      reason: z.enum(REJECT_REASONS),
      count: z.number().int(),
      thread_ids: z.array(z.string()),
      notes: z.array(z.string()),
    }),
  ),
});
export type Figures = z.infer<typeof figuresSchema>;

export const qualityAnswerSchema = z.object({
  since: z.string().nullable(),
  category: z.string().nullable(),
  overall: figuresSchema,
  by_category: z.array(figuresSchema.extend({ category: z.string().nullable() })),
  by_model: z.array(figuresSchema.extend({ model: z.string().nullable() })),
  by_pipeline_version: z.array(figuresSchema.extend({ pipeline_version: z.string().nullable() })),
});

const median = (values: number[]) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export function figuresOf(records: readonly DecisionRecord[]): Figures {
  const approved = records.filter((r) => r.outcome === 'approved');
  const rejected = records.filter((r) => r.outcome === 'rejected');
  const unedited = approved.filter((r) => r.edited === false).length;
  const distances = approved.flatMap((r) => (r.edit_distance === null ? [] : [r.edit_distance]));
  const seconds = records.flatMap((r) => (r.decision_ms === null ? [] : [r.decision_ms / 1000]));
  return {
    decided: records.length,
    approved: approved.length,
    approved_unedited: unedited,
    rejected: rejected.length,
    unedited_share: approved.length ? unedited / approved.length : null,
    edit_distance: {
      count: distances.length,
      mean: distances.length ? distances.reduce((a, b) => a + b, 0) / distances.length : null,
      median: median(distances),
    },
    decision_seconds_median: median(seconds),
    reject_reasons: REJECT_REASONS.map((reason) => {
      const of = rejected.filter((r) => r.reason === reason);
      return {
        reason,
        count: of.length,
        thread_ids: of.map((r) => r.thread_id),
        notes: of.flatMap((r) => (r.note ? [r.note] : [])),
      };
    }).filter((group) => group.count > 0),
  };
}

function groupedBy<K extends 'category' | 'model' | 'pipeline_version'>(
  records: readonly DecisionRecord[],
  key: K,
): (Figures & Record<K, string | null>)[] {
  const groups = new Map<string | null, DecisionRecord[]>();
  for (const record of records) {
    const group = groups.get(record[key]);
    if (group) group.push(record);
    else groups.set(record[key], [record]);
  }
  return [...groups].map(
    ([value, group]) =>
      ({ [key]: value, ...figuresOf(group) }) as Figures & Record<K, string | null>,
  );
}

export function qualityAnswer(
  records: readonly DecisionRecord[],
  filter: DecisionFilter,
): z.infer<typeof qualityAnswerSchema> {
  return {
    since: filter.since ?? null,
    category: filter.category ?? null,
    overall: figuresOf(records),
    by_category: groupedBy(records, 'category'),
    by_model: groupedBy(records, 'model'),
    by_pipeline_version: groupedBy(records, 'pipeline_version'),
  };
}

import type { EmailStateValues } from '../workflow/state.js';
import type { Thread, ThreadStatus } from './thread.js';

/**
 * The API thread after a workflow step, from the graph's state values and the index's own fields.
 * A thread with a draft and no outcome is paused before `send`, i.e. awaiting review.
 */
export function projectThread(
  previous: Thread,
  values: Partial<EmailStateValues>,
  updatedAt: string,
): Thread {
  return {
    ...previous,
    status: statusOf(values),
    classification: values.classification ?? previous.classification,
    draft: values.sent?.text ?? values.reply ?? previous.draft,
    grounding: values.grounding !== undefined ? values.grounding : (previous.grounding ?? null),
    drafted_with:
      values.drafted_with !== undefined ? values.drafted_with : (previous.drafted_with ?? null),
    revision: values.revision ?? previous.revision,
    sent_at: values.sent?.at ?? null,
    updated_at: updatedAt,
    error: null,
  };
}

function statusOf(values: Partial<EmailStateValues>): ThreadStatus {
  if (values.sent) return 'sent';
  if (values.rejected_at) return 'rejected';
  if (values.reply) return 'awaiting_review';
  return 'drafting';
}

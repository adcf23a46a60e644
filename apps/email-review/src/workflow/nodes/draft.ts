import type { WorkflowDeps } from '../deps.js';
import { draftMessages } from '../prompts.js';
import type { EmailStateUpdate, EmailStateValues } from '../state.js';
import { callModel, ModelOutputInvalid } from '../../llm/llm-errors.js';

/**
 * draft — reads `inbound`, `subject`, `classification`, and on a redraft `reply` and `instructions`;
 * writes `reply`, one more `revision`, and clears `instructions`.
 */
export function draftNode(deps: Pick<WorkflowDeps, 'llm' | 'model'>) {
  return async (state: EmailStateValues): Promise<EmailStateUpdate> => {
    const completion = await callModel(() =>
      deps.llm.chat.completions.create({
        model: deps.model,
        messages: draftMessages({
          inbound: state.inbound,
          subject: state.subject,
          classification: state.classification,
          previousDraft: state.reply,
          instructions: state.instructions,
        }),
      }),
    );
    const text = completion.choices[0]?.message.content?.trim();
    if (!text) throw new ModelOutputInvalid('the draft was empty');
    return { reply: text, revision: 1, instructions: null };
  };
}

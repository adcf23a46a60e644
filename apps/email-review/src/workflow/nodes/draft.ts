import type { WorkflowDeps } from '../deps.js';
import { draftMessages } from '../prompts.js';
import type { EmailStateUpdate, EmailStateValues } from '../state.js';
import { ModelOutputInvalid } from '../../llm/llm-errors.js';
import { callModel, DEFAULT_RETRY_BUDGET_MS } from '../../llm/model-call.js';
import { storableText } from '../model-text.js';

/**
 * draft — reads `inbound`, `subject`, `from`, `earlier`, `classification`, and on a redraft `reply` and `instructions`;
 * writes `reply`, one more `revision`, and clears `instructions`.
 */
export function draftNode(deps: Pick<WorkflowDeps, 'llm' | 'model' | 'retry'>) {
  const policy = deps.retry ?? { budgetMs: DEFAULT_RETRY_BUDGET_MS };
  return async (state: EmailStateValues): Promise<EmailStateUpdate> => {
    const completion = await callModel(deps.llm, policy, (options) =>
      deps.llm.chat.completions.create(
        {
          model: deps.model,
          messages: draftMessages({
            inbound: state.inbound,
            subject: state.subject,
            from: state.from,
            classification: state.classification,
            earlier: state.earlier,
            previousDraft: state.reply,
            instructions: state.instructions,
          }),
        },
        options,
      ),
    );
    const text = storableText(completion.choices[0]?.message.content ?? '').trim();
    if (!text) throw new ModelOutputInvalid('the draft was empty');
    return { reply: text, revision: 1, instructions: null };
  };
}

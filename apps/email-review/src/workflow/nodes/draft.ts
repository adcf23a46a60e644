import { groundDraft } from '../../knowledge/grounding.js';
import type { WorkflowDeps } from '../deps.js';
import { DEFAULT_PROMPTS, draftMessages } from '../prompts.js';
import type { EmailStateUpdate, EmailStateValues } from '../state.js';
import { ModelOutputInvalid } from '../../llm/llm-errors.js';
import { callModel } from '../../llm/model-call.js';
import { storableText } from '../model-text.js';

/**
 * draft — reads `inbound`, `subject`, `from`, `earlier`, `classification`, `retrieved` (a redraft:
 * `reply`, `instructions`); writes `reply`, one more `revision`, `grounding`, `drafted_with`, clears
 * `instructions` and `retrieved`. A new thread's draft takes the passages `retrieve` found, a
 * redraft retrieves them anew; either keeps only its citations of those (groundDraft).
 */
export function draftNode(
  deps: Pick<
    WorkflowDeps,
    | 'llm'
    | 'model'
    | 'retry'
    | 'prompts'
    | 'helpCenter'
    | 'guidelines'
    | 'pipelineVersion'
    | 'clock'
  >,
) {
  const prompts = deps.prompts ?? DEFAULT_PROMPTS;
  return async (state: EmailStateValues): Promise<EmailStateUpdate> => {
    const [passages, guidelines] = await Promise.all([
      state.retrieved
        ? (state.retrieved.passages ?? undefined)
        : deps.helpCenter?.passagesFor(state),
      deps.guidelines?.forDraft({
        from: state.from,
        category: state.classification?.category ?? null,
      }),
    ]);
    const completion = await callModel(deps.llm, deps.retry, (options) =>
      deps.llm.chat.completions.create(
        {
          model: deps.model,
          messages: draftMessages(
            { ...state, previousDraft: state.reply, passages, guidelines },
            prompts,
          ),
        },
        options,
      ),
    );
    const text = storableText(completion.choices[0]?.message.content ?? '').trim();
    if (!text) throw new ModelOutputInvalid('the draft was empty');
    const checked =
      deps.helpCenter && passages !== undefined ? groundDraft(text, passages) : undefined;
    if (checked) deps.helpCenter?.observe(checked.grounding);
    const reply = checked?.draft ?? text;
    return {
      reply,
      revision: 1,
      instructions: null,
      retrieved: null,
      grounding: checked?.grounding ?? null,
      drafted_with: {
        model: deps.model,
        pipeline_version: deps.pipelineVersion ?? 'unversioned',
        at: (deps.clock ? deps.clock() : new Date()).toISOString(),
        text: reply,
        redrafted: Boolean(state.instructions),
        guidelines: guidelines ?? [],
      },
    };
  };
}

import { zodResponseFormat } from 'openai/helpers/zod';
import { classificationSchemaFor, DEFAULT_LABELS, oneLineSummary } from '../classification.js';
import type { WorkflowDeps } from '../deps.js';
import { classifyMessages, DEFAULT_PROMPTS } from '../prompts.js';
import type { EmailStateUpdate, EmailStateValues } from '../state.js';
import { ModelOutputInvalid } from '../../llm/llm-errors.js';
import { callModel } from '../../llm/model-call.js';

/**
 * classify — reads `inbound` and `subject`; writes `classification`: one call with strict
 * structured output, the profile's categories and urgencies as its enums.
 */
export function classifyNode(
  deps: Pick<WorkflowDeps, 'llm' | 'model' | 'retry' | 'prompts' | 'labels'>,
) {
  const responseFormat = zodResponseFormat(
    classificationSchemaFor(deps.labels ?? DEFAULT_LABELS),
    'classification',
  );
  const prompts = deps.prompts ?? DEFAULT_PROMPTS;
  return async (state: EmailStateValues): Promise<EmailStateUpdate> => {
    const completion = await callModel(deps.llm, deps.retry, (options) =>
      deps.llm.chat.completions.parse(
        {
          model: deps.model,
          messages: classifyMessages(state.inbound, state.subject, state.from, prompts),
          response_format: responseFormat,
        },
        options,
      ),
    );
    const message = completion.choices[0]?.message;
    if (!message?.parsed)
      throw new ModelOutputInvalid(message?.refusal ? 'the model refused' : 'no classification');
    const { parsed } = message;
    return { classification: { ...parsed, summary: oneLineSummary(parsed.summary) } };
  };
}

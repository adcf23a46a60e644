import { zodResponseFormat } from 'openai/helpers/zod';
import { classificationSchema, oneLineSummary, type Classification } from '../classification.js';
import type { WorkflowDeps } from '../deps.js';
import { classifyMessages } from '../prompts.js';
import type { EmailStateUpdate, EmailStateValues } from '../state.js';
import { ModelOutputInvalid } from '../../llm/llm-errors.js';
import { callModel, DEFAULT_RETRY_BUDGET_MS } from '../../llm/model-call.js';

const responseFormat = zodResponseFormat(classificationSchema, 'classification');

/**
 * classify — reads `inbound` and `subject`; writes `classification`.
 * One Chat Completions call with a strict JSON-schema structured output.
 */
export function classifyNode(deps: Pick<WorkflowDeps, 'llm' | 'model' | 'retry'>) {
  const policy = deps.retry ?? { budgetMs: DEFAULT_RETRY_BUDGET_MS };
  return async (state: EmailStateValues): Promise<EmailStateUpdate> => {
    const completion = await callModel(deps.llm, policy, (options) =>
      deps.llm.chat.completions.parse(
        {
          model: deps.model,
          messages: classifyMessages(state.inbound, state.subject, state.from),
          response_format: responseFormat,
        },
        options,
      ),
    );
    const message = completion.choices[0]?.message;
    if (!message?.parsed)
      throw new ModelOutputInvalid(message?.refusal ? 'the model refused' : 'no classification');
    return { classification: toClassification(message.parsed) };
  };
}

export function toClassification(parsed: Classification): Classification {
  return { ...parsed, summary: oneLineSummary(parsed.summary) };
}

import { APIError } from 'openai';
import { isModelFailure, ModelOutputInvalid } from '../llm/llm-errors.js';
import type { ThreadError } from './thread.js';

/** What a failed thread records about why: a stable code and a message without user text. */
export function describeFailure(error: unknown): ThreadError {
  if (error instanceof ModelOutputInvalid)
    return { code: 'llm_output_invalid', message: error.message };
  if (error instanceof APIError && error.status !== undefined)
    return { code: 'llm_unavailable', message: `The model provider answered ${error.status}.` };
  if (isModelFailure(error))
    return {
      code: 'llm_unavailable',
      message: `The model provider could not be reached (${error.name}).`,
    };
  return { code: 'internal_error', message: 'The workflow step failed unexpectedly.' };
}

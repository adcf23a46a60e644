import OpenAI from 'openai';
import type { OpenAiSettings } from '@repo/llm-config';

/** One client per process: it keeps the HTTP connections to the provider alive between calls. */
export function createOpenAiClient(settings: OpenAiSettings): OpenAI {
  return new OpenAI({
    apiKey: settings.apiKey,
    // The SDK reads an undefined baseURL as an absent one: OPENAI_BASE_URL, else OpenAI's endpoint.
    baseURL: settings.baseURL,
    timeout: settings.timeoutMs,
    maxRetries: settings.maxRetries,
  });
}

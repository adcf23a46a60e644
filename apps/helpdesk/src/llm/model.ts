import type { Gemini } from '@google/adk';
import type { GeminiSettings } from '@repo/llm-config';
import { GeminiWithBaseUrl } from '../patches/adk-gemini-base-url.js';
import { GeminiWithCallPolicy } from '../patches/adk-gemini-call-policy.js';
import { DEFAULT_RETRY_BASE_DELAY_MS, DEFAULT_RETRY_MAX_DELAY_MS } from './retry-backoff.js';

export type ModelSettings = Pick<
  GeminiSettings,
  'apiKey' | 'model' | 'baseUrl' | 'timeoutMs' | 'maxRetries'
> & {
  /** Delay before the first retry (default 250 ms); tests shorten it. */
  retryBaseDelayMs?: number;
};

/** The framework patches applied to the model, each on by default (src/patches/index.ts). */
export interface ModelPatches {
  geminiBaseUrl?: boolean;
  geminiCallPolicy?: boolean;
}

/**
 * ADK's Gemini with what ADK 1.2.0 leaves out: a base URL (the emulator or a proxy), a deadline
 * per call, and retries of transient failures. ADK reports a failed model call as an error event
 * and never retries it, and retrying a whole turn would run its tools twice (two tickets), so
 * the retry sits here, around the one HTTP call.
 */
export function createModel(settings: ModelSettings, patches: ModelPatches = {}): Gemini {
  const params = {
    model: settings.model,
    apiKey: settings.apiKey,
    baseUrl: patches.geminiBaseUrl === false ? undefined : settings.baseUrl,
  };
  if (patches.geminiCallPolicy === false) return new GeminiWithBaseUrl(params);
  return new GeminiWithCallPolicy(params, {
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    baseDelayMs: settings.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
    maxDelayMs: DEFAULT_RETRY_MAX_DELAY_MS,
  });
}

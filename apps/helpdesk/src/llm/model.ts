import type { BaseLlm } from '@google/adk';
import type { Backoff } from '@repo/http-kit';
import type { AgentLlmProvider, AgentModelSettings } from '@repo/llm-config';
import { GeminiWithBaseUrl } from '../patches/adk-gemini-base-url.js';
import { GeminiWithCallPolicy } from '../patches/adk-gemini-call-policy.js';
import { OpenAiChatModel } from './openai/openai-chat-model.js';
import type { CallPolicy } from './resilient-call.js';

export type ModelSettings = Pick<
  AgentModelSettings,
  'apiKey' | 'model' | 'baseUrl' | 'timeoutMs' | 'maxRetries'
> & {
  /** gemini (default) or openai: any OpenAI Chat Completions–compatible endpoint. */
  provider?: AgentLlmProvider;
  /** Delay before the first retry (default 250 ms); tests shorten it. */
  retryBaseDelayMs?: number;
};

/** The framework patches applied to the Gemini model, each on by default (the register: packages/http-kit/src/framework-patches.ts). */
export interface ModelPatches {
  geminiBaseUrl?: boolean;
  geminiCallPolicy?: boolean;
}

const callPolicyOf = (settings: ModelSettings): CallPolicy => ({
  timeoutMs: settings.timeoutMs,
  maxRetries: settings.maxRetries,
  backoff: retryBackoff(settings.retryBaseDelayMs),
});

/**
 * Doubling from 250 ms up to 4 s, half of each wait random, so that sessions rate-limited together
 * do not retry in lockstep.
 */
export const retryBackoff = (firstMs = 250): Backoff => ({
  firstMs,
  maxMs: 4_000,
  jitter: [0.5, 1],
});

/**
 * The agents' model, either provider, with a deadline per call and retries of transient failures
 * around the one HTTP call: ADK never retries a model call, and retrying a whole turn would run its
 * tools twice (two tickets).
 */
export function createModel(settings: ModelSettings, patches: ModelPatches = {}): BaseLlm {
  if (settings.provider === 'openai') return new OpenAiChatModel(settings, callPolicyOf(settings));
  const params = {
    model: settings.model,
    apiKey: settings.apiKey,
    baseUrl: patches.geminiBaseUrl === false ? undefined : settings.baseUrl,
  };
  if (patches.geminiCallPolicy === false) return new GeminiWithBaseUrl(params);
  return new GeminiWithCallPolicy(params, callPolicyOf(settings));
}

import { createOpenAiClient } from 'email-review';
import type { ScenarioContext } from './scenario-context.js';

/** The model name the in-process email-review scenarios (8, 10, 12) ask the emulator for. */
export const MODEL = 'bench-model';

/** email-review's OpenAI client for a service run in the bench's process, talking to the emulator. */
export const emulatorLlm = (ctx: ScenarioContext) =>
  createOpenAiClient({
    apiKey: 'bench-key',
    model: MODEL,
    baseURL: ctx.emulator.openAiBaseUrl,
    timeoutMs: 30_000,
    maxRetries: 0,
  });

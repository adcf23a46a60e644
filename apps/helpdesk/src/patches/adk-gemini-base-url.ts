/**
 * @google/adk@1.2.0 · `Gemini.getHttpOptions` (protected): the options ADK builds its GoogleGenAI
 * client from, once, lazily. Adds `baseUrl`.
 * Why: ADK's GeminiParams has no base URL, and the service must reach the emulator or a proxy
 * (AGENT_LLM_BASE_URL). A function, not speed: without it every call goes to Google.
 * Guarded by: test/startup.test.ts (the model is called with AGENT_LLM_API_KEY, through a
 * recorder at AGENT_LLM_BASE_URL), and every suite that talks to the emulator.
 */
import { Gemini, type GeminiParams } from '@google/adk';
import type { HttpOptions } from '@google/genai';

export class GeminiWithBaseUrl extends Gemini {
  private readonly baseUrl: string | undefined;

  constructor(params: GeminiParams & { baseUrl?: string | undefined }) {
    super(params);
    this.baseUrl = params.baseUrl;
  }

  protected override getHttpOptions(): HttpOptions {
    const options = super.getHttpOptions();
    return this.baseUrl ? { ...options, baseUrl: this.baseUrl } : options;
  }
}

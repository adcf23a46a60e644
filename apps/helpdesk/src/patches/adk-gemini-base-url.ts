/**
 * @google/adk@1.2.0 · `Gemini.getHttpOptions` (protected) plus `baseUrl`: ADK's GeminiParams has
 * none, and the agents must reach AGENT_LLM_BASE_URL. Register entry `adk-gemini-base-url`
 * (packages/http-kit/src/framework-patches.ts); guarded by test/startup.test.ts.
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

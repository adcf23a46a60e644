import { Gemini, type GeminiParams } from '@google/adk';

/**
 * ADK 1.2.0's Gemini model has no base-URL option, but builds its @google/genai client from the protected
 * getHttpOptions(), and genai honours httpOptions.baseUrl.
 */
export class GeminiAtBaseUrl extends Gemini {
  constructor(
    params: GeminiParams,
    private readonly baseUrl: string,
  ) {
    super(params);
  }

  protected override getHttpOptions() {
    return { ...super.getHttpOptions(), baseUrl: this.baseUrl };
  }
}

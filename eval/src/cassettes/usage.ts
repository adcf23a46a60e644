/** Tokens a provider reported for one answer. */
export interface TokenUsage {
  prompt: number;
  completion: number;
}

interface UsageFields {
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number };
}

function fromJson(json: UsageFields): TokenUsage | undefined {
  if (json.usage) {
    return { prompt: json.usage.prompt_tokens ?? 0, completion: json.usage.completion_tokens ?? 0 };
  }
  if (json.usageMetadata) {
    return {
      prompt: json.usageMetadata.promptTokenCount ?? 0,
      completion: json.usageMetadata.candidatesTokenCount ?? 0,
    };
  }
  return undefined;
}

/**
 * The usage an OpenAI or Gemini answer reports: the JSON body's, or for a stream the last `data:`
 * event carrying one (both providers send their totals last). Undefined when none says.
 */
export function usageOf(contentType: string, body: string): TokenUsage | undefined {
  try {
    if (!contentType.includes('text/event-stream'))
      return fromJson(JSON.parse(body) as UsageFields);
    let last: TokenUsage | undefined;
    for (const line of body.split('\n')) {
      const data = line.startsWith('data:') ? line.slice(5).trim() : '';
      if (!data || data === '[DONE]') continue;
      last = fromJson(JSON.parse(data) as UsageFields) ?? last;
    }
    return last;
  } catch {
    return undefined;
  }
}

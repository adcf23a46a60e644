import { SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';

export interface ModelSpanEnd {
  outcome: 'ok' | 'error' | 'timeout';
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  /** The reply, recorded only when content capture is on. */
  reply?: unknown;
  error?: string | undefined;
}

export interface ModelCallSpan {
  end(result: ModelSpanEnd): void;
}

/**
 * A span for one model call, with the GenAI semantic conventions' attributes: `gen_ai.system`
 * (`openai`, `gcp.gemini`), `gen_ai.operation.name`, `gen_ai.request.model`, and at its end
 * `gen_ai.usage.input_tokens`/`output_tokens`. Prompt and reply (`gen_ai.input.messages`,
 * `gen_ai.output.messages`) only when `captureContent`.
 */
export function modelCallSpan(options: {
  system: string;
  model: string;
  captureContent: boolean;
  prompt?: unknown;
  parent?: Context | undefined;
}): ModelCallSpan {
  const tracer = trace.getTracer('@repo/http-kit');
  const span = tracer.startSpan(
    `chat ${options.model}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.system': options.system,
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': options.model,
        ...(options.captureContent && options.prompt !== undefined
          ? { 'gen_ai.input.messages': JSON.stringify(options.prompt) }
          : {}),
      },
    },
    options.parent,
  );
  return {
    end(result) {
      if (result.inputTokens !== undefined)
        span.setAttribute('gen_ai.usage.input_tokens', result.inputTokens);
      if (result.outputTokens !== undefined)
        span.setAttribute('gen_ai.usage.output_tokens', result.outputTokens);
      if (options.captureContent && result.reply !== undefined)
        span.setAttribute('gen_ai.output.messages', JSON.stringify(result.reply));
      if (result.outcome !== 'ok')
        span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? result.outcome });
      span.end();
    },
  };
}

import { modelCallSpan, type ModelCall, type ModelCallOutcome } from '@repo/http-kit';
import type { Context } from '@opentelemetry/api';

interface ChatCompletionBody {
  model?: unknown;
  messages?: unknown;
  choices?: Array<{ message?: unknown }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
}

interface ModelCallObservers {
  /** Told of each call (metrics). */
  report?: ((call: ModelCall) => void) | undefined;
  /** A span for each call (tracing), under the context `parent` gives (the graph node's). */
  tracing?: { captureContent: boolean; parent: () => Context | undefined } | undefined;
}

const numberOr = (value: unknown) => (typeof value === 'number' ? value : undefined);

function requestOf(init: RequestInit | undefined): ChatCompletionBody {
  if (typeof init?.body !== 'string') return {};
  try {
    return JSON.parse(init.body) as ChatCompletionBody;
  } catch {
    return {};
  }
}

function outcomeOf(status: number): ModelCallOutcome {
  if (status >= 200 && status < 300) return 'ok';
  return status === 408 || status === 504 ? 'timeout' : 'error';
}

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');

/**
 * The answer of a JSON call, and the response to hand on in its place: the body is read once, as
 * text, and given to the SDK in a new Response (cheaper than a `clone()`, which tees the stream).
 * Streamed answers (text/event-stream) are not read.
 */
async function answerOf(
  response: Response,
): Promise<{ answer?: ChatCompletionBody; response: Response }> {
  const bodyless = response.status === 204 || response.status === 205;
  if (bodyless || !response.headers.get('content-type')?.includes('json')) return { response };
  const text = await response.text();
  const handedOn = new Response(text, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  try {
    return { answer: JSON.parse(text) as ChatCompletionBody, response: handedOn };
  } catch {
    return { response: handedOn };
  }
}

/**
 * The `fetch` the OpenAI SDK calls for each HTTP attempt (given through `client.withOptions`):
 * reports its model, outcome, time to the last byte and usage, and traces it as a GenAI span.
 */
export function modelCallFetch(observers: ModelCallObservers): typeof fetch {
  return async (input, init) => {
    const request = requestOf(init);
    const model = typeof request.model === 'string' ? request.model : 'unknown';
    const { tracing } = observers;
    const span =
      tracing &&
      modelCallSpan({
        system: 'openai',
        model,
        captureContent: tracing.captureContent,
        prompt: request.messages,
        parent: tracing.parent(),
      });
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    let read: Awaited<ReturnType<typeof answerOf>>;
    try {
      const received = await fetch(input, init);
      read =
        outcomeOf(received.status) === 'ok' ? await answerOf(received) : { response: received };
    } catch (error) {
      // No answer, or the connection dropped in the middle of its body: the SDK retries it.
      const outcome = isTimeout(error) ? 'timeout' : 'error';
      observers.report?.({ provider: 'openai', model, outcome, seconds: seconds() });
      span?.end({ outcome, error: error instanceof Error ? error.name : undefined });
      throw error;
    }
    const { answer, response } = read;
    const outcome = outcomeOf(response.status);
    const usage = {
      inputTokens: numberOr(answer?.usage?.prompt_tokens),
      outputTokens: numberOr(answer?.usage?.completion_tokens),
    };
    observers.report?.({ provider: 'openai', model, outcome, seconds: seconds(), ...usage });
    span?.end({
      outcome,
      ...usage,
      reply: answer?.choices?.map((choice) => choice.message),
      error: outcome === 'ok' ? undefined : `status ${response.status}`,
    });
    return response;
  };
}

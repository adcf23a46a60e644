import { Counter, Histogram, type Registry } from 'prom-client';

/** How one model call (one HTTP attempt at the provider) ended. */
export type ModelCallOutcome = 'ok' | 'error' | 'timeout';

export interface ModelCall {
  /** `openai` or `gemini`: the wire the call went over. */
  provider: string;
  model: string;
  outcome: ModelCallOutcome;
  seconds: number;
  /** From the provider's usage, when it reported one. */
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
}

const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120];

/**
 * The model-call metrics both services expose under the same names: calls and their latency by
 * provider, model and outcome, and tokens by provider, model and direction (`input`/`output`).
 */
export function modelCallMetrics(registry: Registry): (call: ModelCall) => void {
  const calls = new Counter({
    name: 'llm_calls_total',
    help: 'Model calls (each HTTP attempt, retries included), by provider, model and outcome.',
    labelNames: ['provider', 'model', 'outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'llm_call_duration_seconds',
    help: 'Time from sending a model call to its last byte, by provider, model and outcome.',
    labelNames: ['provider', 'model', 'outcome'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const tokens = new Counter({
    name: 'llm_tokens_total',
    help: 'Tokens the provider reported in its usage, by provider, model and direction (input: prompt, output: completion).',
    labelNames: ['provider', 'model', 'direction'] as const,
    registers: [registry],
  });
  return (call) => {
    const { provider, model } = call;
    calls.inc({ provider, model, outcome: call.outcome });
    duration.observe({ provider, model, outcome: call.outcome }, call.seconds);
    if (call.inputTokens) tokens.inc({ provider, model, direction: 'input' }, call.inputTokens);
    if (call.outputTokens) tokens.inc({ provider, model, direction: 'output' }, call.outputTokens);
  };
}

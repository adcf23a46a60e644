import {
  STREAMING_VARIANTS,
  type StreamingResult,
  type StreamingVariant,
} from '../scenarios/results.js';
import type { Section, TargetCheck } from './report-model.js';

const LABELS: Record<StreamingVariant, string> = {
  'project-json': 'project, POST /chat (JSON)',
  'project-sse': 'project, POST /chat (text/event-stream)',
  'peer-json': 'adk api_server, POST /run',
  'peer-sse': 'adk api_server, POST /run_sse (streaming)',
};

function atMost(target: string, valueMs: number, goalMs: number): TargetCheck {
  const met = valueMs <= goalMs;
  return {
    target,
    measured: `${valueMs.toFixed(0)} ms`,
    met,
    ...(met ? {} : { shortfall: `${(valueMs - goalMs).toFixed(0)} ms` }),
  };
}

/**
 * Scenario 7's targets (issue 20), for the billing question's three model calls: the streamed
 * `agent` event about one call in, `done` about three calls in.
 */
export function streamingTargets(result: StreamingResult): TargetCheck[] {
  const streamed = result.variants['project-sse'];
  const call = result.latencyMs;
  return [
    atMost(
      `streamed: the first event (agent) p50 within ${call + 100} ms (one ${call} ms model call + 100 ms)`,
      streamed.firstEvent.p50,
      call + 100,
    ),
    atMost(
      `streamed: done p50 within ${3 * call + 100} ms (three ${call} ms model calls + 100 ms)`,
      streamed.done.p50,
      3 * call + 100,
    ),
  ];
}

export function streamingSection(result: StreamingResult): Section {
  const v = result.variants;
  return {
    id: 7,
    title: `Streaming: time to the first event and to the reply, one billing question at a time (three model calls), emulator latency ${result.latencyMs} ms`,
    commands: result.commands,
    tables: [
      {
        title: `Milliseconds after sending, ${result.messages} messages per way of asking (p50 / p99)`,
        columns: ['', 'first event p50', 'first event p99', 'reply p50', 'reply p99', 'failed'],
        rows: STREAMING_VARIANTS.map((key) => [
          LABELS[key],
          v[key].firstEvent.p50,
          v[key].firstEvent.p99,
          v[key].done.p50,
          v[key].done.p99,
          v[key].failed,
        ]),
        decimals: 0,
      },
    ],
    notes: [
      'A JSON answer shows nothing before the whole reply: its first event is its reply.',
      "The project's first event is `agent` (after the coordinator's call), then `tool_call`, `tool_result`, the reply's `delta`s and `done`; adk api_server's /run_sse sends ADK's raw events (the first one is the coordinator's `transfer_to_agent` call) and ends the stream when the run ends.",
      "adk api_server's /run_sse aborts the run when the client disconnects; the project's stream does not (the turn completes and is recorded).",
      `Each way of asking sends one warm-up message first; each message opens a session of its own (adk api_server: created beforehand, not timed).`,
    ],
    targets: streamingTargets(result),
  };
}

import type { A2aChatResult, A2aVariant } from '../scenarios/results.js';
import { median, ratio } from '../stats/percentiles.js';
import type { Section, TargetCheck } from './report-model.js';
import { medianShareAtLeast } from './targets.js';

const VARIANTS: readonly A2aVariant[] = ['chat', 'a2a'];
const LABELS: Record<A2aVariant, string> = {
  chat: 'POST /chat',
  a2a: 'A2A message/send',
};

/** Scenario 9's target: A2A costs little over the HTTP API on the same process. */
export function a2aChatTargets(result: A2aChatResult): TargetCheck[] {
  return [
    medianShareAtLeast(
      'A2A message/send ≥ 90 % of POST /chat’s chats/s at concurrency 8 (same process, same agent tree)',
      result.rounds.map((round) => ratio(round.a2a.perSecond, round.chat.perSecond)),
      0.9,
    ),
  ];
}

export function a2aChatSection(result: A2aChatResult): Section {
  const medians = VARIANTS.map((key) => median(result.rounds.map((round) => round[key].perSecond)));
  return {
    id: 9,
    title: `Helpdesk over A2A (chats of ${result.messagesPerChat} messages at concurrency ${result.concurrency}), emulator latency 0`,
    commands: result.commands,
    tables: [
      {
        title: 'Chats per second',
        columns: ['', ...VARIANTS.map((key) => LABELS[key]), 'A2A ÷ POST /chat'],
        rows: [
          ...result.rounds.map((round, i) => [
            `round ${i + 1}`,
            ...VARIANTS.map((key) => round[key].perSecond),
            ratio(round.a2a.perSecond, round.chat.perSecond),
          ]),
          ['median', ...medians, ratio(medians[1]!, medians[0]!)],
        ],
      },
      {
        title: 'Latency of one message, ms (p50 / p99), and CPU per chat, ms (median round)',
        columns: ['', 'message p50', 'message p99', 'CPU per chat'],
        rows: VARIANTS.map((key) => {
          const runs = result.rounds.map((round) => round[key]);
          return [
            LABELS[key],
            median(runs.map((run) => run.latency['message']?.p50 ?? Number.NaN)),
            median(runs.map((run) => run.latency['message']?.p99 ?? Number.NaN)),
            median(runs.map((run) => run.cpuMsPerIteration)),
          ];
        }),
      },
    ],
    notes: [
      'Both ways of asking run the same turn through the same chat service; A2A adds the SDK’s JSON-RPC handling, a task in its in-memory store and the task’s events (submitted, working, the reply artifact, completed).',
      `Each run stops after ${result.maxRunMs / 1000} s.`,
    ],
    targets: a2aChatTargets(result),
  };
}

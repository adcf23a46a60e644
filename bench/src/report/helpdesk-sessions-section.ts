import type { HelpdeskSessionsResult, SessionsSystem } from '../scenarios/results.js';
import { median, ratio } from '../stats/percentiles.js';
import type { Section, TargetCheck } from './report-model.js';
import { medianShareAtLeast, ratioAtLeast } from './targets.js';

const SYSTEMS: readonly SessionsSystem[] = ['memory', 'postgres', 'peer'];
const LABELS: Record<SessionsSystem, string> = {
  memory: 'helpdesk, memory',
  postgres: 'helpdesk, PostgreSQL',
  peer: 'adk api_server, DatabaseSessionService',
};

const medianRate = (result: HelpdeskSessionsResult, key: SessionsSystem) =>
  median(result.rounds.map((round) => round[key].perSecond));

/** Scenario 6's targets: PostgreSQL mode against memory mode and against ADK's database sessions. */
export function helpdeskSessionsTargets(result: HelpdeskSessionsResult): TargetCheck[] {
  return [
    medianShareAtLeast(
      'helpdesk with sessions in PostgreSQL ≥ 75 % of memory mode’s chats/s at concurrency 8',
      result.rounds.map((round) => ratio(round.postgres.perSecond, round.memory.perSecond)),
      0.75,
    ),
    ratioAtLeast(
      '≥ 1.3× adk api_server’s chats/s with its DatabaseSessionService on the same PostgreSQL, concurrency 8 (medians)',
      ratio(medianRate(result, 'postgres'), medianRate(result, 'peer')),
      { goal: 1.3, decimals: 2 },
    ),
  ];
}

export function helpdeskSessionsSection(result: HelpdeskSessionsResult): Section {
  const rows = result.rounds.map((round, i) => [
    `round ${i + 1}`,
    ...SYSTEMS.map((key) => round[key].perSecond),
    ratio(round.postgres.perSecond, round.memory.perSecond),
    ratio(round.postgres.perSecond, round.peer.perSecond),
  ]);
  const medians = SYSTEMS.map((key) => medianRate(result, key));
  return {
    id: 6,
    title: `Helpdesk sessions in PostgreSQL (chats of ${result.messagesPerChat} messages at concurrency ${result.concurrency}), emulator latency 0`,
    commands: result.commands,
    tables: [
      {
        title: 'Chats per second',
        columns: [
          '',
          ...SYSTEMS.map((key) => LABELS[key]),
          'PostgreSQL ÷ memory',
          'PostgreSQL ÷ peer (×)',
        ],
        rows: [
          ...rows,
          ['median', ...medians, ratio(medians[1]!, medians[0]!), ratio(medians[1]!, medians[2]!)],
        ],
      },
      {
        title: 'Latency of one message, ms (p50 / p99), and CPU per chat, ms (median round)',
        columns: ['', 'message p50', 'message p99', 'CPU per chat'],
        rows: SYSTEMS.map((key) => {
          const runs = result.rounds.map((round) => round[key]);
          return [
            LABELS[key],
            median(runs.map((run) => run.latency['message']?.p50 ?? Number.NaN)),
            median(runs.map((run) => run.latency['message']?.p99 ?? Number.NaN)),
            median(runs.map((run) => run.cpuMsPerIteration)),
          ];
        }),
      },
      {
        title: 'Chats measured (completed / failed), all rounds',
        decimals: 0,
        columns: ['', 'done', 'failed'],
        rows: SYSTEMS.map((key) => [
          LABELS[key],
          result.rounds.reduce((sum, round) => sum + round[key].completed, 0),
          result.rounds.reduce((sum, round) => sum + round[key].failed, 0),
        ]),
      },
    ],
    notes: [
      'PostgreSQL mode takes a per-session advisory lock for each turn (across instances) and writes the session once per turn; ADK’s DatabaseSessionService writes every event in a transaction of its own and takes no lock across a turn.',
      `The peer's chat also includes its session create (POST /apps/{app}/users/{user}/sessions); the helpdesk creates the session with the first message. ADK's tables live in a database of their own on the same server (their names are fixed). Each run stops after ${result.maxRunMs / 1000} s.`,
    ],
    targets: helpdeskSessionsTargets(result),
  };
}

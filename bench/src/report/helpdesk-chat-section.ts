import {
  LOAD_MODES,
  type ChatSystem,
  type HelpdeskChatResult,
  type LoadModeKey,
} from '../scenarios/results.js';
import { ratio, summarize } from '../stats/percentiles.js';
import type { Section, TargetCheck } from './report-model.js';
import { ratioAtLeast } from './targets.js';

const SYSTEMS: readonly ChatSystem[] = ['project', 'peer'];

/** Scenario 2's target: chats/s against adk api_server at concurrency 8. */
export function helpdeskChatTargets(result: HelpdeskChatResult): TargetCheck[] {
  const { project, peer } = result.runs.concurrent8;
  return [
    ratioAtLeast(
      "≥ 1.3× adk api_server's chats/s at concurrency 8",
      ratio(project.perSecond, peer.perSecond),
      { goal: 1.3, decimals: 2 },
      {
        service: 'helpdesk',
        iterations: result.profileIterations,
        concurrency: 8,
        latencyMs: 0,
        workload: `${result.profileIterations} chats at concurrency 8`,
      },
    ),
  ];
}

export function helpdeskChatSection(result: HelpdeskChatResult): Section {
  const run = (mode: LoadModeKey, key: ChatSystem) => result.runs[mode][key];
  const cpu = (mode: LoadModeKey, key: ChatSystem) => run(mode, key).cpuMsPerIteration;
  const rate = (mode: LoadModeKey, key: ChatSystem) => run(mode, key).perSecond;
  const latency = (mode: LoadModeKey, key: ChatSystem, step: string) =>
    run(mode, key).latency[step] ?? summarize([]);
  const sessionCreate = LOAD_MODES.map(
    (m) => `${m.label} ${latency(m.key, 'peer', 'session').p50.toFixed(1)} ms`,
  ).join(', ');
  return {
    id: 2,
    title: `Helpdesk chat (sessions of ${result.messagesPerChat} messages: billing, technical, escalation, billing, technical), emulator latency 0`,
    commands: result.commands,
    tables: [
      {
        title: 'Chats per second',
        columns: ['', 'project', 'adk api_server', 'project ÷ peer (×)'],
        rows: LOAD_MODES.map((m) => [
          m.label,
          rate(m.key, 'project'),
          rate(m.key, 'peer'),
          ratio(rate(m.key, 'project'), rate(m.key, 'peer')),
        ]),
      },
      {
        title: 'Latency, ms (p50 / p99): one message (POST /chat vs POST /run), and a whole chat',
        columns: [
          '',
          'project p50',
          'project p99',
          'peer p50',
          'peer p99',
          'peer ÷ project p50 (×)',
        ],
        rows: LOAD_MODES.flatMap((m) =>
          (
            [
              ['message', 'message'],
              ['chat', 'iteration'],
            ] as const
          ).map(([name, step]) => {
            const project = latency(m.key, 'project', step);
            const peer = latency(m.key, 'peer', step);
            return [
              `${m.label} · ${name}`,
              project.p50,
              project.p99,
              peer.p50,
              peer.p99,
              ratio(peer.p50, project.p50),
            ];
          }),
        ),
      },
      {
        title:
          'CPU time the system used per chat, ms (all its processes; less noisy than rates on a shared machine)',
        columns: ['', 'project', 'adk api_server', 'peer ÷ project (×)'],
        rows: LOAD_MODES.map((m) => [
          m.label,
          cpu(m.key, 'project'),
          cpu(m.key, 'peer'),
          ratio(cpu(m.key, 'peer'), cpu(m.key, 'project')),
        ]),
      },
      {
        title: 'Chats measured (completed / failed)',
        decimals: 0,
        columns: ['', 'project done', 'project failed', 'peer done', 'peer failed'],
        rows: LOAD_MODES.map((m) => [
          m.label,
          ...SYSTEMS.flatMap((k) => [run(m.key, k).completed, run(m.key, k).failed]),
        ]),
      },
    ],
    notes: [
      `The peer's chat also includes its session create (POST /apps/{app}/users/{user}/sessions; p50 ${sessionCreate}); the project creates the session with the first message.`,
      `The project serializes turns per session and validates every request; adk api_server does neither. Each run stops after ${result.maxRunMs / 1000} s.`,
    ],
    targets: helpdeskChatTargets(result),
  };
}

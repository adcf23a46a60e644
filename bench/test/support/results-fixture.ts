import type {
  A2aChatResult,
  EmailLifecycleResult,
  FrameworkPatchesResult,
  GrowthResult,
  GuidelinesResult,
  HelpdeskSessionsResult,
  HelpdeskChatResult,
  LoadModeKey,
  Overheads,
  OverheadRun,
  ProviderOverheadResult,
  StreamingResult,
  SystemRun,
} from '../../src/scenarios/results.js';
import type { Summary } from '../../src/stats/percentiles.js';

/** Fixed results of the four scenarios, shaped like a real run's, for the report's tests. */

export function summary(p50: number, p99 = p50 * 2): Summary {
  return { count: 10, p50, p99, mean: p50, max: p99 };
}

function systemRun(perSecond: number, steps: string[]): SystemRun {
  return {
    perSecond,
    cpuMsPerIteration: 1000 / perSecond / 2,
    completed: 100,
    failed: 0,
    latency: Object.fromEntries(
      [...steps, 'iteration', 'session'].map((s) => [s, summary(1000 / perSecond)]),
    ),
  };
}

const MODES: LoadModeKey[] = ['sequential', 'concurrent8', 'concurrent32'];
const EMAIL_STEPS = ['create', 'get', 'approve'];

export function emailLifecycleResult(
  postgresShares: number[] = [0.7, 0.78, 0.76],
): EmailLifecycleResult {
  const rates = {
    sequential: [68, 44, 0.9],
    concurrent8: [150, 105, 6.8],
    concurrent32: [140, 126, 25],
  };
  const runs = Object.fromEntries(
    MODES.map((m) => {
      const [memory, postgres, peer] = rates[m];
      return [
        m,
        {
          memory: systemRun(memory ?? 1, EMAIL_STEPS),
          postgres: systemRun(postgres ?? 1, EMAIL_STEPS),
          peer: systemRun(peer ?? 1, EMAIL_STEPS),
        },
      ];
    }),
  ) as EmailLifecycleResult['runs'];
  const pairedAt8 = postgresShares.map((share) => ({ memory: 100, postgres: 100 * share }));
  // The first pair is the one in the main table.
  runs.concurrent8.memory.perSecond = 100;
  runs.concurrent8.postgres.perSecond = 100 * (postgresShares[0] ?? 1);
  return {
    scenario: 1,
    runs,
    pairedAt8,
    database: { writes: 1700, scans: 2200, lifecycles: 100 },
    warmup: 5,
    maxRunMs: 20_000,
    profileIterations: 200,
    commands: ['node apps/email-review/dist/server.js'],
  };
}

export function helpdeskChatResult(): HelpdeskChatResult {
  const rates = { sequential: [30, 25], concurrent8: [59, 40], concurrent32: [66, 42] };
  return {
    scenario: 2,
    runs: Object.fromEntries(
      MODES.map((m) => [
        m,
        {
          project: systemRun(rates[m][0] ?? 1, ['message']),
          peer: systemRun(rates[m][1] ?? 1, ['message']),
        },
      ]),
    ) as HelpdeskChatResult['runs'],
    messagesPerChat: 5,
    maxRunMs: 20_000,
    profileIterations: 200,
    commands: ['node apps/helpdesk/dist/server.js'],
  };
}

function overheads(p50ByKind: Record<string, number>): Overheads {
  return {
    added: Object.fromEntries(Object.entries(p50ByKind).map(([k, v]) => [k, summary(v)])),
    calls: Object.fromEntries(Object.keys(p50ByKind).map((k) => [k, k === 'get' ? 0 : 2])),
    completed: 40,
    failed: 0,
  };
}

/** Added time p50 of the project's services and of the frameworks alone, per run. */
export interface OverheadFigures {
  email: number;
  emailAlone: number;
  helpdesk: number;
  helpdeskAlone: number;
  /** The agent tree behind a bare node:http server; unset: not measured (older results). */
  helpdeskBareHttp?: number;
}

function overheadRun(
  concurrency: number,
  arrivals: OverheadRun['arrivals'],
  f: OverheadFigures,
): OverheadRun {
  const email = (all: number) => overheads({ create: all * 3, get: all / 3, approve: all, all });
  return {
    concurrency,
    arrivals,
    lifecycles: 40,
    chats: 10,
    systems: {
      email: email(f.email),
      langgraph: email(500),
      helpdesk: overheads({ message: f.helpdesk }),
      adk: overheads({ message: 10 }),
    },
    frameworksAlone: {
      email: email(f.emailAlone),
      helpdesk: overheads({ message: f.helpdeskAlone }),
    },
    ...(f.helpdeskBareHttp === undefined
      ? {}
      : { helpdeskOverBareHttp: overheads({ message: f.helpdeskBareHttp }) }),
  };
}

export function providerOverheadResult(
  sequential: OverheadFigures = { email: 3, emailAlone: 2, helpdesk: 8.4, helpdeskAlone: 7.3 },
  spread: OverheadFigures = { email: 2.6, emailAlone: 2.4, helpdesk: 7.5, helpdeskAlone: 5.5 },
): ProviderOverheadResult {
  const parts = { added: 9, outside: 0.5, before: 3, between: 3, after: 2, callsOverDirect: 0.5 };
  return {
    scenario: 3,
    latencyMs: 300,
    directCallMs: { openai: 301.6, gemini: 301.8 },
    runs: [
      overheadRun(1, 'together', sequential),
      overheadRun(8, 'spread', spread),
      // A burst: shown, never judged, however slow.
      overheadRun(8, 'together', { email: 50, emailAlone: 1, helpdesk: 50, helpdeskAlone: 1 }),
    ],
    split: { email: parts, helpdesk: parts },
    commands: ['node apps/email-review/dist/server.js'],
  };
}

export function growthResult(): GrowthResult {
  const MB = 1024 * 1024;
  return {
    scenario: 4,
    email: {
      threads: [1000, 20000],
      seedConcurrency: 32,
      seeded: { threads: 1005, perSecond: 98.5, seconds: 10.2 },
      rest: { via: 'sql', threads: 18995, seconds: 1.6, apiEstimateMinutes: 3.1 },
      storage: { rows: 15075, bytes: 7_700_000, threads: 1005, tables: { checkpoints: 2010 } },
      peerBytesPerThread: 20_000,
      perSecond: [130, 120],
      commands: ['node apps/email-review/dist/server.js'],
    },
    helpdesk: {
      sessions: [1000, 20000],
      maxSessions: 500,
      messagesPerChat: 5,
      rss: [
        [1000, 400 * MB],
        [20000, 408 * MB],
      ],
      projectMinutes: 5,
      peerSessions: 500,
      peerMbPer1kSessions: 585,
      projectTokens: [1251, 1559, 2264],
      peerTokens: [1251, 2096, 27071],
      commands: ['node apps/helpdesk/dist/server.js'],
    },
    profileIterations: 200,
  };
}

/** Scenario 5 with 300 ms per model call: the streamed `agent` event after one call, `done` after three. */
export function streamingResult(firstEventMs = 312, doneMs = 930): StreamingResult {
  const variant = (first: number, done: number) => ({
    firstEvent: summary(first, first + 10),
    done: summary(done, done + 10),
    failed: 0,
  });
  return {
    scenario: 7,
    latencyMs: 300,
    messages: 20,
    variants: {
      'project-json': variant(935, 935),
      'project-sse': variant(firstEventMs, doneMs),
      'peer-json': variant(940, 940),
      'peer-sse': variant(315, 935),
    },
    commands: [
      'node apps/helpdesk/dist/server.js',
      'adk api_server apps/helpdesk/dist/agents/agent.js',
    ],
  };
}

/** Scenario 5: the service as shipped, then each speed patch off, three rounds each. */
export function frameworkPatchesResult(): FrameworkPatchesResult {
  return {
    scenario: 5,
    email: {
      concurrency: 8,
      lifecycles: 160,
      runs: [
        { patch: null, rounds: [120, 100, 110] },
        { patch: 'pg-named-statements', rounds: [90, 100, 100] },
        { patch: 'langgraph-checkpoint-postgres-one-row-checkpoints', rounds: [109, 110, 108] },
      ],
    },
  };
}

/** Scenario 6: three rounds of memory mode, PostgreSQL mode and ADK's database sessions. */
export function helpdeskSessionsResult(): HelpdeskSessionsResult {
  const round = (memory: number, postgres: number, peer: number) => ({
    memory: systemRun(memory, ['message']),
    postgres: systemRun(postgres, ['message']),
    peer: systemRun(peer, ['message']),
  });
  return {
    scenario: 6,
    rounds: [round(30, 24, 4), round(32, 25, 4.2), round(29, 23, 3.9)],
    concurrency: 8,
    messagesPerChat: 5,
    maxRunMs: 20_000,
    commands: [
      'node apps/helpdesk/dist/server.js',
      'adk api_server --session_service_uri postgresql://…',
    ],
  };
}

/** Scenario 9: three rounds of POST /chat and A2A message/send on one helpdesk (A2A at `shares` of it). */
export function a2aChatResult(shares: number[] = [0.95, 0.92, 0.97]): A2aChatResult {
  return {
    scenario: 9,
    rounds: shares.map((share) => ({
      chat: systemRun(40, ['message']),
      a2a: systemRun(40 * share, ['message']),
    })),
    concurrency: 8,
    messagesPerChat: 5,
    maxRunMs: 20_000,
    commands: ['node apps/helpdesk/dist/server.js'],
  };
}

/**
 * Scenario 12: three rounds per mode; with the guidelines, drafts take `draftAdded` ms longer than
 * none (20 ms), unedited approvals `approveAdded` (none 5 ms), edited ones 0.4 ms (none 6 ms).
 */
export function guidelinesResult(draftAdded = [0.25, 0.5, 0.75], approveAdded = [0.1, -0.2, 0.4]) {
  const rounds = draftAdded.map((added, i) => ({
    draftP50: { none: 20, with: 20 + added },
    approveP50: { none: 5, with: 5 + approveAdded[i]! },
    editedApproveP50: { none: 6, with: 6.4 },
  }));
  const result: GuidelinesResult = {
    scenario: 12,
    guidelines: 5_000,
    seedMs: { memory: 400, postgres: 21_000 },
    drafts: 50,
    perDraft: { memory: { with: 8, none: 0 }, postgres: { with: 8, none: 0 } },
    derivations: { memory: { with: 180, none: 180 }, postgres: { with: 180, none: 180 } },
    rounds: { memory: rounds, postgres: rounds },
  };
  return result;
}

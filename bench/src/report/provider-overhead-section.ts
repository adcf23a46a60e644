import { EMAIL_STEPS } from '../drivers/email-driver.js';
import type { AddedTimeParts } from '../profile/request-timeline.js';
import type { OverheadRun, Overheads, ProviderOverheadResult } from '../scenarios/results.js';
import { ratio, type Summary } from '../stats/percentiles.js';
import type { Section, Table, TargetCheck } from './report-model.js';

const NO_SAMPLES: Summary = {
  count: 0,
  p50: Number.NaN,
  p99: Number.NaN,
  mean: Number.NaN,
  max: Number.NaN,
};

function added(o: Overheads, kind: string): Summary {
  return o.added[kind] ?? NO_SAMPLES;
}

export function runLabel(run: Pick<OverheadRun, 'concurrency' | 'arrivals'>): string {
  if (run.concurrency === 1) return 'sequential';
  return `concurrency ${run.concurrency}, ${run.arrivals === 'spread' ? 'arrivals spread' : 'all start at once'}`;
}

const SERVICES = [
  {
    key: 'email',
    name: 'email-review',
    kind: 'all',
    per: 'request',
    what: 'an email create',
    splitKind: 'create',
    frameworks: 'LangGraph and the openai SDK',
    unit: 'lifecycles',
  },
  {
    key: 'helpdesk',
    name: 'helpdesk',
    kind: 'message',
    per: 'message',
    what: 'a chat message',
    splitKind: 'message',
    frameworks: 'ADK and @google/genai',
    unit: 'chats',
  },
] as const;

/** Scenario 3's targets: the time each service's requests add over their model calls, in every run. */
export function providerOverheadTargets(result: ProviderOverheadResult): TargetCheck[] {
  return result.runs.flatMap((run) =>
    SERVICES.map((service) => {
      const s = added(run.systems[service.key], service.kind);
      const met = s.p50 < 5 && s.p99 < 25;
      const target: TargetCheck = {
        target: `${service.name}, ${runLabel(run)}: added time per ${service.per} p50 < 5 ms and p99 < 25 ms`,
        measured: `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms`,
        met,
      };
      if (met) return target;
      target.shortfall = [
        s.p50 >= 5 ? `p50 by ${(s.p50 - 5).toFixed(1)} ms` : '',
        s.p99 >= 25 ? `p99 by ${(s.p99 - 25).toFixed(1)} ms` : '',
      ]
        .filter(Boolean)
        .join(', ');
      if (run.concurrency === 1 && result.split && run.frameworksAlone) {
        target.explanation = describeSplit(
          service.what,
          result.split[service.key],
          added(run.frameworksAlone[service.key], service.splitKind),
          service.frameworks,
        );
      }
      const count = service.key === 'email' ? run.lifecycles : run.chats;
      target.profileRequest = {
        service: service.key,
        iterations: count,
        concurrency: run.concurrency,
        latencyMs: result.latencyMs,
        workload: `${count} ${service.unit}, ${runLabel(run)}, provider latency ${result.latencyMs} ms`,
      };
      return target;
    }),
  );
}

function describeSplit(
  what: string,
  p: AddedTimeParts,
  alone: Summary,
  frameworks: string,
): string {
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  return (
    `Sequentially ${what} adds ${ms(p.added)} on average: ${ms(p.before)} in the service before its first model call, ` +
    `${ms(p.between)} between its calls, ${ms(p.after)} after the last one, ${ms(p.callsOverDirect)} more on the wire for its calls ` +
    `than for as many direct calls from a bare node:http client, and ${ms(p.outside)} of HTTP to and from the bench client. ` +
    `${frameworks} alone, in-process with no HTTP server, add ${ms(alone.p50)} at p50 (${ms(alone.p99)} at p99) to the same work.`
  );
}

function addedTable(result: ProviderOverheadResult): Table {
  const row = (name: string, project: Overheads, peer: Overheads, kind: string) => {
    const p = added(project, kind);
    const q = added(peer, kind);
    const calls = (o: Overheads) => o.calls[kind] ?? Number.NaN;
    return [name, p.p50, p.p99, q.p50, q.p99, ratio(q.p50, p.p50), calls(project), calls(peer)];
  };
  return {
    title: 'Time each request adds over its model calls, ms (p50 / p99)',
    columns: [
      'request',
      'project p50',
      'project p99',
      'peer p50',
      'peer p99',
      'peer ÷ project p50 (×)',
      'model calls / request (project)',
      'model calls / request (peer)',
    ],
    rows: result.runs.flatMap((run) => {
      const { email, langgraph, helpdesk, adk } = run.systems;
      return [
        ...EMAIL_STEPS.map((step) =>
          row(`${runLabel(run)} · email ${step}`, email, langgraph, step),
        ),
        row(`${runLabel(run)} · every email request`, email, langgraph, 'all'),
        row(`${runLabel(run)} · chat message`, helpdesk, adk, 'message'),
      ];
    }),
  };
}

function splitTable(split: NonNullable<ProviderOverheadResult['split']>): Table {
  const row = (name: string, p: AddedTimeParts) => [
    name,
    p.added,
    p.outside,
    p.before,
    p.between,
    p.after,
    p.callsOverDirect,
  ];
  return {
    title:
      "Where a sequential request's added time goes (project, mean ms; the parts add up to the added time)",
    columns: [
      'request',
      'added time',
      'HTTP to and from the bench client',
      'service, before the first model call',
      'service, between model calls',
      'service, after the last model call',
      'model calls on the wire over as many direct calls',
    ],
    rows: [row('email create', split.email), row('chat message', split.helpdesk)],
  };
}

/** The sequential added time of the frameworks alone beside the project's. */
function frameworksAloneTable(run: OverheadRun): Table | undefined {
  const alone = run.frameworksAlone;
  if (!alone) return undefined;
  const kinds = [
    ['email create (LangGraph + openai SDK)', 'email', 'create'],
    ['email approve (LangGraph)', 'email', 'approve'],
    ['chat message (ADK + @google/genai)', 'helpdesk', 'message'],
  ] as const;
  return {
    title:
      'The frameworks alone, in-process with no HTTP server, sequential: time added over the model calls, ms',
    columns: [
      'request',
      'framework alone p50',
      'framework alone p99',
      'project p50',
      'project p99',
      'project − framework alone, p50',
    ],
    rows: kinds.map(([name, key, kind]) => {
      const a = added(alone[key], kind);
      const p = added(run.systems[key], kind);
      return [name, a.p50, a.p99, p.p50, p.p99, p.p50 - a.p50];
    }),
  };
}

function iterationsTable(result: ProviderOverheadResult): Table {
  const counts = (o: Overheads) => [o.completed, o.failed];
  return {
    title: 'Iterations measured (completed / failed)',
    decimals: 0,
    columns: ['', 'project done', 'project failed', 'peer done', 'peer failed'],
    rows: result.runs.flatMap((run) => [
      [
        `${runLabel(run)} · email lifecycles`,
        ...counts(run.systems.email),
        ...counts(run.systems.langgraph),
      ],
      [`${runLabel(run)} · chats`, ...counts(run.systems.helpdesk), ...counts(run.systems.adk)],
    ]),
  };
}

export function providerOverheadSection(result: ProviderOverheadResult): Section {
  const { latencyMs, directCallMs } = result;
  const sequential = result.runs.find((run) => run.concurrency === 1);
  const alone = sequential && frameworksAloneTable(sequential);
  return {
    id: 3,
    title: `Overhead with a realistic provider (emulator latency ${latencyMs} ms per call)`,
    commands: result.commands,
    tables: [
      addedTable(result),
      ...(result.split ? [splitTable(result.split)] : []),
      ...(alone ? [alone] : []),
      iterationsTable(result),
    ],
    notes: [
      `Added time = request time − (its model calls × the direct round trip of one call). A direct call to the emulator, same body, sequential: OpenAI ${directCallMs.openai.toFixed(1)} ms, Gemini ${directCallMs.gemini.toFixed(1)} ms (latency ${latencyMs} ms + the emulator's own work). Calls are attributed to requests by a tag in the text each request sends, found in the emulator's request log.`,
      "Sequentially the added time is the service's own work per request; concurrently it also holds the wait behind the other requests' work on the same event loop (and, on this shared 2-core machine, behind other processes).",
      "The split of the sequential added time comes from a preload in the project's services (`node --import bench/dist/profile/request-timeline-preload.js`) that timestamps each request they serve and each model call they make (from undici creating the request to the response's last byte) through Node's diagnostics channels. The SDKs' own work to build a request and read its answer falls in before / between / after; HTTP to and from the bench client includes both sides' HTTP parsing and waking the idle client.",
      "The frameworks alone run in the bench's own process, in the sequential run only: email-review's compiled graph invoked on LangGraph's MemorySaver (durability 'exit', as the service runs it; `send` delivers nowhere), and the helpdesk's agent tree on ADK's Runner with its InMemorySessionService; same emulator, same texts, same subtraction of the direct calls. What the project adds beyond them is its HTTP server, validation, logging, locks, thread index and session handling.",
      'The peers\' "email create" is POST /threads + POST /threads/{id}/runs/wait; its approve is the resume run. The peer\'s session create is not part of any message.',
    ],
    targets: providerOverheadTargets(result),
  };
}

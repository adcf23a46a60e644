import type { AddedTimeParts } from '../profile/request-timeline.js';
import type { Summary } from '../stats/percentiles.js';

/**
 * What each scenario returns: plain numbers and labels, no layout, no judgement. The report
 * (src/report/) turns them into tables, judges the targets and writes the prose.
 */

/** The concurrencies scenarios 1 and 2 measure every system at. */
export const LOAD_MODES = [
  { key: 'sequential', label: 'sequential', concurrency: 1 },
  { key: 'concurrent8', label: 'concurrency 8', concurrency: 8 },
  { key: 'concurrent32', label: 'concurrency 32', concurrency: 32 },
] as const;
export type LoadModeKey = (typeof LOAD_MODES)[number]['key'];

/** One system measured at one concurrency. */
export interface SystemRun {
  /** Completed iterations per second of wall time. */
  perSecond: number;
  /** CPU time the system's processes used per completed iteration, ms. */
  cpuMsPerIteration: number;
  completed: number;
  failed: number;
  /** Latency by timed step (e.g. `create`, `message`), and `iteration` for whole iterations, ms. */
  latency: Record<string, Summary>;
}

export type EmailSystem = 'memory' | 'postgres' | 'peer';

/** Scenario 1: create → get → approve on the service (memory, PostgreSQL) and the LangGraph dev server. */
export interface EmailLifecycleResult {
  scenario: 1;
  runs: Record<LoadModeKey, Record<EmailSystem, SystemRun>>;
  /**
   * Lifecycles/s of memory and PostgreSQL mode at concurrency 8 in paired runs: the first pair is
   * the one in `runs`, the others repeat it, so the ratio target is judged on their median.
   */
  pairedAt8: Array<{ memory: number; postgres: number }>;
  /** pg_stat_user_tables of PostgreSQL mode over `lifecycles` (warm-up included). */
  database: { writes: number; scans: number; lifecycles: number };
  warmup: number;
  maxRunMs: number;
  profileIterations: number;
  commands: string[];
}

export type ChatSystem = 'project' | 'peer';

/** Scenario 2: chats on the helpdesk and on `adk api_server`. */
export interface HelpdeskChatResult {
  scenario: 2;
  runs: Record<LoadModeKey, Record<ChatSystem, SystemRun>>;
  messagesPerChat: number;
  maxRunMs: number;
  profileIterations: number;
  commands: string[];
}

/** Added time over the model calls of the requests of one system in one run. */
export interface Overheads {
  /** By request kind (`create`, `get`, `approve`, `message`) and `all`, ms. */
  added: Record<string, Summary>;
  /** Mean model calls per request, by the same keys. */
  calls: Record<string, number>;
  completed: number;
  failed: number;
}

export type OverheadSystem = 'email' | 'langgraph' | 'helpdesk' | 'adk';

export interface OverheadRun {
  concurrency: number;
  arrivals: 'spread' | 'together';
  lifecycles: number;
  chats: number;
  systems: Record<OverheadSystem, Overheads>;
  /** The frameworks alone in the bench's process (email-review's graph, the helpdesk's agent tree). */
  frameworksAlone: Record<'email' | 'helpdesk', Overheads>;
  /**
   * The helpdesk's agent tree on ADK's Runner behind a bare node:http server in a process of its
   * own: ADK alone plus HTTP between processes (absent from results of before it was measured).
   */
  helpdeskOverBareHttp?: Overheads;
}

/** Scenario 3: added time over the model calls with a provider of realistic latency. */
export interface ProviderOverheadResult {
  scenario: 3;
  latencyMs: number;
  /** A direct call's round trip to the emulator, per provider, ms. */
  directCallMs: { openai: number; gemini: number };
  runs: OverheadRun[];
  /** Where a sequential request's mean added time goes (the project's services). */
  split?: { email: AddedTimeParts; helpdesk: AddedTimeParts };
  commands: string[];
}

/** Scenario 4, email-review with PostgreSQL: storage per thread and throughput as threads pile up. */
export interface EmailGrowthResult {
  threads: [number, number];
  seedConcurrency: number;
  /** Threads seeded through the API first (they also give the storage per thread). */
  seeded: { threads: number; perSecond: number; seconds: number };
  /** How the rest up to the second point was seeded. */
  rest?: { via: 'api' | 'sql'; threads: number; seconds: number; apiEstimateMinutes: number };
  storage: { rows: number; bytes: number; threads: number; tables: Record<string, number> };
  peerBytesPerThread: number;
  /** Lifecycles/s at concurrency 8 at the two points. */
  perSecond: [number, number];
  commands: string[];
}

/** Scenario 4, helpdesk: resident memory as sessions pile up, and prompt size in one long session. */
export interface HelpdeskGrowthResult {
  sessions: [number, number];
  maxSessions: number;
  messagesPerChat: number;
  /** [sessions so far, RSS bytes] after each batch. */
  rss: Array<[number, number]>;
  projectMinutes: number;
  peerSessions: number;
  peerMbPer1kSessions: number;
  projectTokens: number[];
  peerTokens: number[];
  commands: string[];
}

export interface GrowthResult {
  scenario: 4;
  email: EmailGrowthResult;
  helpdesk: HelpdeskGrowthResult;
  profileIterations: number;
}

/** One variant of scenario 5: every patch on (`patch: null`) or the named one off; a value per round. */
export interface PatchMeasure {
  patch: string | null;
  rounds: number[];
}

/** Scenario 5: what each speed patch buys, in-process, with a provider that answers at once. */
export interface FrameworkPatchesResult {
  scenario: 5;
  /** email-review's graph on its PostgreSQL checkpointer: lifecycles/s at `concurrency`. */
  email: { concurrency: number; lifecycles: number; runs: PatchMeasure[] };
}

export type SessionsSystem = 'memory' | 'postgres' | 'peer';

/**
 * Scenario 6: chats at concurrency 8 on the helpdesk with sessions in memory and in PostgreSQL,
 * and on `adk api_server --session_service_uri postgresql://…` (ADK's DatabaseSessionService),
 * the three taking turns in each round.
 */
export interface HelpdeskSessionsResult {
  scenario: 6;
  rounds: Array<Record<SessionsSystem, SystemRun>>;
  concurrency: number;
  messagesPerChat: number;
  maxRunMs: number;
  commands: string[];
}

/** Scenario 7's four ways of asking: each system as JSON and as an event stream. */
export const STREAMING_VARIANTS = ['project-json', 'project-sse', 'peer-json', 'peer-sse'] as const;
export type StreamingVariant = (typeof STREAMING_VARIANTS)[number];

/** Scenario 7: time to the first event and to the reply, one message at a time. */
export interface StreamingResult {
  scenario: 7;
  /** The emulator's latency per model call. */
  latencyMs: number;
  /** Messages timed per variant (after one warm-up message). */
  messages: number;
  variants: Record<StreamingVariant, { firstEvent: Summary; done: Summary; failed: number }>;
  commands: string[];
}

/** Scenario 8's variants of email-review: metrics and tracing off, metrics on, both on. */
export const OBSERVABILITY_VARIANTS = ['off', 'metrics', 'tracing'] as const;
export type ObservabilityVariant = (typeof OBSERVABILITY_VARIANTS)[number];

/**
 * Scenario 8: email-review over HTTP, in-process with a provider that answers at once, with
 * metrics and tracing off, metrics on, and both on (spans exported to an OTLP/HTTP receiver):
 * lifecycles/s per round.
 */
export interface ObservabilityResult {
  scenario: 8;
  concurrency: number;
  lifecycles: number;
  rounds: Record<ObservabilityVariant, number[]>;
  /** Spans the receiver got during the tracing rounds. */
  spansExported: number;
}

export type A2aVariant = 'chat' | 'a2a';

/** Scenario 9: chats at concurrency 8 on one helpdesk, through POST /chat and A2A's message/send, taking turns. */
export interface A2aChatResult {
  scenario: 9;
  rounds: Array<Record<A2aVariant, SystemRun>>;
  concurrency: number;
  messagesPerChat: number;
  maxRunMs: number;
  commands: string[];
}

/**
 * Scenario 10's variants of email-review: no webhook endpoint; one subscribed to every event; and
 * the floor: no endpoint, but the bench POSTs the same three signed events per lifecycle to the
 * receiver from the service's process, with no outbox at all (what sending alone costs here).
 */
export const WEBHOOK_VARIANTS = ['none', 'subscribed', 'floor'] as const;
export type WebhookVariant = (typeof WEBHOOK_VARIANTS)[number];

/**
 * Scenario 10: email-review over HTTP in-process on PostgreSQL, the provider answering at once,
 * without webhooks and with one endpoint (a receiver in a child process) subscribed to every
 * event: lifecycles/s per round.
 */
export interface WebhooksResult {
  scenario: 10;
  concurrency: number;
  lifecycles: number;
  rounds: Record<WebhookVariant, number[]>;
  /**
   * Per round, how long after its last lifecycle every email delivery was sent and every webhook
   * delivered (not in lifecycles/s: the next round waits for it).
   */
  drainMs: Record<WebhookVariant, number[]>;
  /** Deliveries the receiver verified and accepted, per variant. */
  delivered: Record<WebhookVariant, number>;
}

export const HELP_CENTER_MODES = ['memory', 'postgres'] as const;
export type HelpCenterMode = (typeof HELP_CENTER_MODES)[number];

/** Per round, one storage mode's email-review and helpdesk with the knowledge base (`on`) and without (`off`). */
export interface HelpCenterRound {
  /** p50 of POST /threads (classify and draft, with the retrieval when on), sequential (ms). */
  draftP50: Record<'on' | 'off', number>;
  /** p50 of POST /chat with a help center question (the agent searches), sequential (ms). */
  messageP50: Record<'on' | 'off', number>;
  /** Lifecycles/s at the scenario's concurrency. */
  lifecyclesPerSecond: Record<'on' | 'off', number>;
  /** email-review's CPU time per lifecycle in those runs (ms); absent in results of earlier runs. */
  lifecycleCpuMs?: Record<'on' | 'off', number>;
}

/** A service's knowledge base searches as its /metrics histogram counts them (warm-up included). */
export interface KbSearchStats {
  count: number;
  /** Searches that took at most 5 ms (the histogram's first bucket). */
  within5ms: number;
  meanMs: number;
}

/**
 * Scenario 11: the services with a help center of `articles` articles and without one, in each
 * storage mode: a draft's and a chat message's time, and email lifecycles/s, round by round.
 */
export interface HelpCenterResult {
  scenario: 11;
  articles: number;
  /** How long each mode's knowledge base took to load at start-up (ms). */
  loadMs: Record<HelpCenterMode, number>;
  drafts: number;
  chats: number;
  lifecycles: number;
  concurrency: number;
  /** Lifecycles each email-review ran at `concurrency` before the first round, unmeasured. */
  warmLifecycles?: number;
  rounds: Record<HelpCenterMode, HelpCenterRound[]>;
  /** The `on` services' own timing of their searches, read from /metrics after the rounds. */
  searches: Record<HelpCenterMode, { email?: KbSearchStats; helpdesk?: KbSearchStats }>;
  commands: string[];
}

export const GUIDELINE_MODES = ['memory', 'postgres'] as const;
export type GuidelineMode = (typeof GUIDELINE_MODES)[number];
/** email-review with the seeded guidelines stored (`with`) and with none (`none`). */
export type GuidelineVariant = 'with' | 'none';

/** Per round, one storage mode's p50s (ms) of each variant, sequential. */
export interface GuidelinesRound {
  /** POST /threads from a sender with guidelines of every scope (classify, choose guidelines, draft). */
  draftP50: Record<GuidelineVariant, number>;
  /** POST /threads/{id}/approve of an unedited draft. */
  approveP50: Record<GuidelineVariant, number>;
  /** POST /threads/{id}/approve after an edit: it also queues the guideline derivation. */
  editedApproveP50: Record<GuidelineVariant, number>;
}

/**
 * Scenario 12: email-review with `guidelines` learned guidelines stored and with none, in each
 * storage mode: a draft's time and an approval's, round by round.
 */
export interface GuidelinesResult {
  scenario: 12;
  /** Guidelines stored in the `with` variant before the rounds. */
  guidelines: number;
  /** How long storing them through the service's guideline store took, per mode (ms). */
  seedMs: Record<GuidelineMode, number>;
  /** Drafts of each kind (unedited, edited) per variant and round. */
  drafts: number;
  /** Guidelines the measured drafts' prompts carried (from the threads' records), mean per draft. */
  perDraft: Record<GuidelineMode, Record<GuidelineVariant, number>>;
  /** Derivations recorded from the edited approvals (warm-up included), per mode and variant. */
  derivations: Record<GuidelineMode, Record<GuidelineVariant, number>>;
  rounds: Record<GuidelineMode, GuidelinesRound[]>;
}

export type ScenarioResult =
  | EmailLifecycleResult
  | HelpdeskChatResult
  | ProviderOverheadResult
  | GrowthResult
  | FrameworkPatchesResult
  | HelpdeskSessionsResult
  | StreamingResult
  | ObservabilityResult
  | A2aChatResult
  | WebhooksResult
  | HelpCenterResult
  | GuidelinesResult;

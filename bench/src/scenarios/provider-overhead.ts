import { AdkChatDriver } from '../drivers/adk-chat-driver.js';
import { chatMessages, type ChatDriver } from '../drivers/chat-driver.js';
import { EMAIL_STEPS, inboundEmail, type EmailDriver } from '../drivers/email-driver.js';
import { EmailReviewDriver } from '../drivers/email-review-driver.js';
import { HelpdeskDriver } from '../drivers/helpdesk-driver.js';
import { InProcessAdkDriver } from '../drivers/in-process-adk-driver.js';
import { InProcessEmailDriver } from '../drivers/in-process-email-driver.js';
import { LanggraphEmailDriver } from '../drivers/langgraph-email-driver.js';
import { callsByTag } from '../emulator/call-attribution.js';
import { directCallMs } from '../emulator/call-calibration.js';
import type { EmulatorRequest } from '../emulator/emulator-process.js';
import { runLoad, type LoadResult } from '../load/run-load.js';
import { StepTimer } from '../load/step-timer.js';
import {
  addedTimeParts,
  readTimeline,
  requestParts,
  type AddedTimeParts,
  TIMELINE_NODE_FLAGS,
  type RequestParts,
} from '../profile/request-timeline.js';
import type { Section, Table, TargetCheck } from '../report/report-model.js';
import { summarize, type Summary } from '../stats/percentiles.js';
import { startAdkApiServer } from '../systems/adk-api-server.js';
import { startEmailReview } from '../systems/email-review-service.js';
import { startHelpdesk } from '../systems/helpdesk-service.js';
import { startLanggraphDevServer } from '../systems/langgraph-dev-server.js';
import { profileEmail } from './email-lifecycle.js';
import { profileHelpdesk } from './helpdesk-chat.js';
import type { ScenarioContext } from './scenario-context.js';
import {
  assertMostlySucceeded,
  chatIteration,
  emailIteration,
  ratio,
  warmUp,
} from './workloads.js';

/** One request, its duration, and the tag its model calls carry. */
interface TimedRequest {
  kind: string;
  tag: string;
  ms: number;
}

interface Overheads {
  /** Added time (request time − its model calls × the direct call time), by request kind. */
  added: Map<string, number[]>;
  /** Model calls per request, by request kind. */
  calls: Map<string, number[]>;
  /** Durations as the bench client saw them of the requests that made model calls. */
  withCallsMs: number[];
  completed: number;
  failed: number;
  /** Mean time of one whole iteration (lifecycle or chat), ms. */
  iterationMs: number;
}

function overheads(
  requests: TimedRequest[],
  log: EmulatorRequest[],
  callMs: number,
  result: LoadResult,
): Overheads {
  const byTag = callsByTag(log);
  const added = new Map<string, number[]>();
  const calls = new Map<string, number[]>();
  const withCallsMs: number[] = [];
  for (const r of requests) {
    // Only a create (email) or a message (chat) carries the tag; get and approve make no model call.
    const n = r.kind === 'create' || r.kind === 'message' ? (byTag.get(r.tag) ?? 0) : 0;
    if (n > 0) withCallsMs.push(r.ms);
    for (const key of [r.kind, 'all']) {
      added.set(key, [...(added.get(key) ?? []), r.ms - n * callMs]);
      calls.set(key, [...(calls.get(key) ?? []), n]);
    }
  }
  return {
    added,
    calls,
    withCallsMs,
    completed: result.completed,
    failed: result.failed,
    iterationMs: summarize(result.iterations).mean,
  };
}

type RunSpec = ScenarioContext['config']['overhead']['runs'][number];

async function measureEmail(
  ctx: ScenarioContext,
  driver: EmailDriver,
  prefix: string,
  run: RunSpec,
  callMs: number,
  rampMs: number,
) {
  await ctx.emulator.clearRequests();
  const requests: TimedRequest[] = [];
  const result = await runLoad(
    { total: run.lifecycles, concurrency: run.concurrency, rampMs },
    async (i) => {
      const tag = `${prefix}-${i}`;
      const timer = new StepTimer();
      await driver.lifecycle(inboundEmail(i, tag), timer);
      for (const step of EMAIL_STEPS)
        requests.push({ kind: step, tag, ms: timer.of(step)[0] ?? Number.NaN });
    },
  );
  assertMostlySucceeded(`scenario 3 ${prefix}`, result);
  return overheads(requests, await ctx.emulator.requests(), callMs, result);
}

async function measureChat(
  ctx: ScenarioContext,
  driver: ChatDriver,
  prefix: string,
  run: RunSpec,
  callMs: number,
  rampMs: number,
) {
  await ctx.emulator.clearRequests();
  const requests: TimedRequest[] = [];
  const result = await runLoad(
    { total: run.chats, concurrency: run.concurrency, rampMs },
    async (i) => {
      const tag = `${prefix}-${i}`;
      const timer = new StepTimer();
      const messages = chatMessages(tag);
      await driver.chat(tag, messages, timer);
      timer
        .of('message')
        .forEach((msDone, k) =>
          requests.push({ kind: 'message', tag: `${tag}-t${k + 1}`, ms: msDone }),
        );
    },
  );
  assertMostlySucceeded(`scenario 3 ${prefix}`, result);
  return overheads(requests, await ctx.emulator.requests(), callMs, result);
}

/**
 * The same sequential workloads on the frameworks alone, in this process: how much of the added
 * time LangGraph + openai and ADK + genai take before any service code or HTTP server is involved.
 */
async function measureFrameworksAlone(
  ctx: ScenarioContext,
  prefix: string,
  run: RunSpec,
  openAiMs: number,
  geminiMs: number,
): Promise<{ email: Overheads; helpdesk: Overheads }> {
  const email = new InProcessEmailDriver(ctx.emulator.openAiBaseUrl);
  const helpdesk = new InProcessAdkDriver(ctx.emulator.url);
  await warmUp(emailIteration(email, `${prefix}-fe-warm`), ctx.config.warmup);
  await warmUp(chatIteration(helpdesk, `${prefix}-fh-warm`), ctx.config.warmup);
  return {
    email: await measureEmail(ctx, email, `${prefix}-fe`, run, openAiMs, 0),
    helpdesk: await measureChat(ctx, helpdesk, `${prefix}-fh`, run, geminiMs, 0),
  };
}

/** The median direct round trip of one model call of `provider`, replaying the latest logged body. */
async function calibrate(ctx: ScenarioContext, provider: 'openai' | 'gemini'): Promise<number> {
  const sample = (await ctx.emulator.requests())
    .filter((r) => r.provider === provider && r.status === 200)
    .at(-1);
  if (!sample) throw new Error(`no ${provider} call in the emulator log to calibrate with`);
  return directCallMs(ctx.emulator.url, sample);
}

type SystemKey = 'email' | 'langgraph' | 'helpdesk' | 'adk';

function label(run: RunSpec): string {
  if (run.concurrency === 1) return 'sequential';
  return `concurrency ${run.concurrency}, ${run.arrivals === 'spread' ? 'arrivals spread' : 'all start at once'}`;
}

/** Scenario 3: the same two workloads with a provider that takes `latencyMs` per call, sequentially and concurrently. */
export async function providerOverheadScenario(ctx: ScenarioContext): Promise<Section> {
  const { config, emulator } = ctx;
  const { latencyMs, runs } = config.overhead;
  await emulator.setLatency(0);
  const tag = `${ctx.runTag}-s3`;

  // The project's services carry the timeline preload, which splits their sequential requests.
  const email = await ctx.start(
    startEmailReview({ emulatorUrl: emulator.url, nodeFlags: TIMELINE_NODE_FLAGS }),
  );
  const langgraph = await ctx.shared('langgraph', () =>
    startLanggraphDevServer({ emulatorUrl: emulator.url }),
  );
  const helpdesk = await ctx.start(
    startHelpdesk({ emulatorUrl: emulator.url, nodeFlags: TIMELINE_NODE_FLAGS }),
  );
  const adk = await ctx.shared('adk', () => startAdkApiServer({ emulatorUrl: emulator.url }));
  const commands = [email, langgraph, helpdesk, adk].map((s) => s.process.commandLine);
  const drivers = {
    email: new EmailReviewDriver(email.url, 32),
    langgraph: new LanggraphEmailDriver(langgraph.url, 32, langgraph.graphId),
    helpdesk: new HelpdeskDriver(helpdesk.url, 32),
    adk: new AdkChatDriver(adk.url, 32, adk.appName),
  };
  const results: Array<Record<SystemKey, Overheads>> = [];
  let sequentialParts: { email: RequestParts[]; helpdesk: RequestParts[] } | undefined;
  let frameworksAlone: { email: Overheads; helpdesk: Overheads } | undefined;
  let openAiMs = Number.NaN;
  let geminiMs = Number.NaN;
  try {
    await warmUp(emailIteration(drivers.email, `${tag}-em-warm`), config.warmup);
    await warmUp(emailIteration(drivers.langgraph, `${tag}-lg-warm`), config.warmup);
    await warmUp(chatIteration(drivers.helpdesk, `${tag}-hd-warm`), config.warmup);
    await warmUp(chatIteration(drivers.adk, `${tag}-adk-warm`), config.warmup);
    // Warm at latency 0 (it is the same code path), then give the provider its realistic latency.
    await emulator.setLatency(latencyMs);
    openAiMs = await calibrate(ctx, 'openai');
    geminiMs = await calibrate(ctx, 'gemini');
    // A spread run starts its workers across one of that system's sequential iterations.
    const sequentialMs: Partial<Record<SystemKey, number>> = {};
    for (const [r, run] of runs.entries()) {
      ctx.log(
        `scenario 3: latency ${latencyMs} ms, ${label(run)}: ${run.lifecycles} lifecycles, ${run.chats} chats per system`,
      );
      const ramp = (key: SystemKey) =>
        run.concurrency > 1 && run.arrivals === 'spread' ? (sequentialMs[key] ?? 0) : 0;
      const sequential = run.concurrency === 1;
      // Drop the spans of the warm-up and of earlier runs.
      if (sequential) for (const s of [email, helpdesk]) await readTimeline(s.process.pid);
      const res: Record<SystemKey, Overheads> = {
        email: await measureEmail(
          ctx,
          drivers.email,
          `${tag}-r${r}-em`,
          run,
          openAiMs,
          ramp('email'),
        ),
        langgraph: await measureEmail(
          ctx,
          drivers.langgraph,
          `${tag}-r${r}-lg`,
          run,
          openAiMs,
          ramp('langgraph'),
        ),
        helpdesk: await measureChat(
          ctx,
          drivers.helpdesk,
          `${tag}-r${r}-hd`,
          run,
          geminiMs,
          ramp('helpdesk'),
        ),
        adk: await measureChat(ctx, drivers.adk, `${tag}-r${r}-adk`, run, geminiMs, ramp('adk')),
      };
      if (sequential) {
        for (const key of Object.keys(res) as SystemKey[]) sequentialMs[key] = res[key].iterationMs;
        sequentialParts = {
          email: requestParts(await readTimeline(email.process.pid)),
          helpdesk: requestParts(await readTimeline(helpdesk.process.pid)),
        };
        frameworksAlone = await measureFrameworksAlone(
          ctx,
          `${tag}-r${r}`,
          run,
          openAiMs,
          geminiMs,
        );
      }
      results.push(res);
    }
  } finally {
    for (const driver of Object.values(drivers)) driver.close();
  }
  await ctx.cleanup();

  const row = (name: string, project: Overheads, peer: Overheads, kind: string) => {
    const p = summarize(project.added.get(kind) ?? []);
    const q = summarize(peer.added.get(kind) ?? []);
    const calls = (o: Overheads) => summarize(o.calls.get(kind) ?? []).mean;
    return [name, p.p50, p.p99, q.p50, q.p99, ratio(q.p50, p.p50), calls(project), calls(peer)];
  };
  const sequentialRun = results[runs.findIndex((run) => run.concurrency === 1)];
  const split =
    sequentialRun && sequentialParts
      ? {
          email: addedTimeParts(sequentialParts.email, sequentialRun.email.withCallsMs, openAiMs),
          helpdesk: addedTimeParts(
            sequentialParts.helpdesk,
            sequentialRun.helpdesk.withCallsMs,
            geminiMs,
          ),
        }
      : undefined;
  const splitRow = (name: string, p: AddedTimeParts) => [
    name,
    p.added,
    p.outside,
    p.before,
    p.between,
    p.after,
    p.callsOverDirect,
  ];
  const section: Section = {
    id: 3,
    title: `Overhead with a realistic provider (emulator latency ${latencyMs} ms per call)`,
    commands,
    tables: [
      {
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
        rows: runs.flatMap((run, r) => {
          const res = results[r] as Record<SystemKey, Overheads>;
          return [
            ...EMAIL_STEPS.map((step) =>
              row(`${label(run)} · email ${step}`, res.email, res.langgraph, step),
            ),
            row(`${label(run)} · every email request`, res.email, res.langgraph, 'all'),
            row(`${label(run)} · chat message`, res.helpdesk, res.adk, 'message'),
          ];
        }),
      },
      ...(split
        ? [
            {
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
              rows: [
                splitRow('email create', split.email),
                splitRow('chat message', split.helpdesk),
              ],
            },
          ]
        : []),
      ...(frameworksAlone && sequentialRun
        ? [frameworksAloneTable(frameworksAlone, sequentialRun)]
        : []),
      {
        title: 'Iterations measured (completed / failed)',
        decimals: 0,
        columns: ['', 'project done', 'project failed', 'peer done', 'peer failed'],
        rows: runs.flatMap((run, r) => {
          const res = results[r] as Record<SystemKey, Overheads>;
          return [
            [
              `${label(run)} · email lifecycles`,
              res.email.completed,
              res.email.failed,
              res.langgraph.completed,
              res.langgraph.failed,
            ],
            [
              `${label(run)} · chats`,
              res.helpdesk.completed,
              res.helpdesk.failed,
              res.adk.completed,
              res.adk.failed,
            ],
          ];
        }),
      },
    ],
    notes: [
      `Added time = request time − (its model calls × the direct round trip of one call). A direct call to the emulator, same body, sequential: OpenAI ${openAiMs.toFixed(1)} ms, Gemini ${geminiMs.toFixed(1)} ms (latency ${latencyMs} ms + the emulator's own work). Calls are attributed to requests by a tag in the text each request sends, found in the emulator's request log.`,
      "Sequentially the added time is the service's own work per request; concurrently it also holds the wait behind the other requests' work on the same event loop (and, on this shared 2-core machine, behind other processes).",
      "The split of the sequential added time comes from a preload in the project's services (`node --import bench/dist/profile/request-timeline-preload.js`) that timestamps each request they serve and each model call they make (from undici creating the request to the response's last byte) through Node's diagnostics channels. The SDKs' own work to build a request and read its answer falls in before / between / after; HTTP to and from the bench client includes both sides' HTTP parsing and waking the idle client.",
      "The frameworks alone run in the bench's own process, in the sequential run only: email-review's compiled graph invoked on LangGraph's MemorySaver (durability 'exit', as the service runs it; `send` delivers nowhere), and the helpdesk's agent tree on ADK's Runner with its InMemorySessionService; same emulator, same texts, same subtraction of the direct calls. What the project adds beyond them is its HTTP server, validation, logging, locks, thread index and session handling.",
      'The peers\' "email create" is POST /threads + POST /threads/{id}/runs/wait; its approve is the resume run. The peer\'s session create is not part of any message.',
    ],
    targets: [],
  };

  const targets: TargetCheck[] = [];
  const profiled = new Set<string>();
  for (const [r, run] of runs.entries()) {
    const res = results[r] as Record<SystemKey, Overheads>;
    for (const [service, key, label2] of [
      ['email', 'email', 'request'],
      ['helpdesk', 'helpdesk', 'message'],
    ] as const) {
      const target = addedTarget(
        `${service === 'email' ? 'email-review' : 'helpdesk'}, ${label(run)}: added time per ${label2} p50 < 5 ms and p99 < 25 ms`,
        summarize(res[key].added.get('all') ?? []),
      );
      if (!target.met && run.concurrency === 1 && split && frameworksAlone) {
        const kind = service === 'email' ? 'create' : 'message';
        target.explanation = describeSplit(
          service === 'email' ? 'an email create' : 'a chat message',
          split[key],
          summarize(frameworksAlone[key].added.get(kind) ?? []),
          service === 'email' ? 'LangGraph and the openai SDK' : 'ADK and @google/genai',
        );
      }
      if (!target.met && !profiled.has(`${service}/${run.concurrency}`) && ctx.takeProfileSlot()) {
        profiled.add(`${service}/${run.concurrency}`);
        const count = service === 'email' ? run.lifecycles : run.chats;
        target.profileWorkload = `${count} ${service === 'email' ? 'lifecycles' : 'chats'}, ${label(run)}, provider latency ${latencyMs} ms`;
        target.profile =
          service === 'email'
            ? await profileEmail(ctx, 'memory', count, run.concurrency)
            : await profileHelpdesk(ctx, count, run.concurrency);
      }
      targets.push(target);
    }
  }
  await emulator.setLatency(0);
  section.targets = targets;
  return section;
}

/** The sequential added time of the frameworks alone beside the project's. */
function frameworksAloneTable(
  alone: Record<'email' | 'helpdesk', Overheads>,
  project: Record<SystemKey, Overheads>,
): Table {
  const rows = [
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
    rows: rows.map(([name, key, kind]) => {
      const a = summarize(alone[key].added.get(kind) ?? []);
      const p = summarize(project[key].added.get(kind) ?? []);
      return [name, a.p50, a.p99, p.p50, p.p99, p.p50 - a.p50];
    }),
  };
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

function addedTarget(target: string, s: Summary): TargetCheck {
  const met = s.p50 < 5 && s.p99 < 25;
  const over = [
    s.p50 >= 5 ? `p50 by ${(s.p50 - 5).toFixed(1)} ms` : '',
    s.p99 >= 25 ? `p99 by ${(s.p99 - 25).toFixed(1)} ms` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return {
    target,
    measured: `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms`,
    met,
    ...(met ? {} : { shortfall: over }),
  };
}

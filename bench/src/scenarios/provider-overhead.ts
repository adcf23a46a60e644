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
  TIMELINE_NODE_FLAGS,
} from '../profile/request-timeline.js';
import { mean, summarize } from '../stats/percentiles.js';
import { startAdkApiServer } from '../systems/adk-api-server.js';
import { startAdkBareHttp } from '../systems/adk-bare-http.js';
import { startEmailReview } from '../systems/email-review-service.js';
import { startHelpdesk } from '../systems/helpdesk-service.js';
import { startLanggraphDevServer } from '../systems/langgraph-dev-server.js';
import type { Overheads, OverheadRun, ProviderOverheadResult } from './results.js';
import type { ScenarioContext } from './scenario-context.js';
import { assertMostlySucceeded, chatIteration, emailIteration, warmUp } from './workloads.js';

/** One request, its duration, and the tag its model calls carry. */
interface TimedRequest {
  kind: string;
  tag: string;
  ms: number;
}

/** A run's overheads, and what the sequential split and the next runs' ramps need from it. */
interface Measured {
  overheads: Overheads;
  /** Durations as the bench client saw them of the requests that made model calls. */
  withCallsMs: number[];
  /** Mean time of one whole iteration (lifecycle or chat), ms. */
  iterationMs: number;
}

function measured(
  requests: TimedRequest[],
  log: EmulatorRequest[],
  callMs: number,
  result: LoadResult,
): Measured {
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
    overheads: {
      added: Object.fromEntries([...added].map(([k, v]) => [k, summarize(v)])),
      calls: Object.fromEntries([...calls].map(([k, v]) => [k, mean(v)])),
      completed: result.completed,
      failed: result.failed,
    },
    withCallsMs,
    iterationMs: summarize(result.iterations).mean,
  };
}

type RunSpec = ScenarioContext['config']['overhead']['runs'][number];

/** A run of the load, the provider's latency per call and the ramp of its arrivals. */
interface PacedRun {
  run: RunSpec;
  callMs: number;
  rampMs: number;
}

async function measureEmail(
  ctx: ScenarioContext,
  driver: EmailDriver,
  prefix: string,
  { run, callMs, rampMs }: PacedRun,
): Promise<Measured> {
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
  return measured(requests, await ctx.emulator.requests(), callMs, result);
}

async function measureChat(
  ctx: ScenarioContext,
  driver: ChatDriver,
  prefix: string,
  { run, callMs, rampMs }: PacedRun,
): Promise<Measured> {
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
  return measured(requests, await ctx.emulator.requests(), callMs, result);
}

/** The median direct round trip of one model call of `provider`, replaying the latest logged body. */
async function calibrate(ctx: ScenarioContext, provider: 'openai' | 'gemini'): Promise<number> {
  const sample = (await ctx.emulator.requests())
    .filter((r) => r.provider === provider && r.status === 200)
    .at(-1);
  if (!sample) throw new Error(`no ${provider} call in the emulator log to calibrate with`);
  return directCallMs(ctx.emulator.url, sample);
}

/**
 * The project's services and their peers over HTTP, the helpdesk's agent tree behind a bare
 * node:http server, then the frameworks alone in this process.
 */
const SYSTEMS = [
  'email',
  'langgraph',
  'helpdesk',
  'adk',
  'helpdeskBareHttp',
  'emailAlone',
  'helpdeskAlone',
] as const;
type SystemKey = (typeof SYSTEMS)[number];
const EMAIL_SYSTEMS = new Set<SystemKey>(['email', 'langgraph', 'emailAlone']);

/**
 * Scenario 3: the same two workloads with a provider that takes `latencyMs` per call, sequentially
 * and concurrently, on the services, their peers, and the frameworks alone.
 */
export async function providerOverheadScenario(
  ctx: ScenarioContext,
): Promise<ProviderOverheadResult> {
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
  const bareHttp = await ctx.start(startAdkBareHttp({ emulatorUrl: emulator.url }));
  const commands = [email, langgraph, helpdesk, adk, bareHttp].map((s) => s.process.commandLine);
  const drivers: Record<SystemKey, EmailDriver | ChatDriver> = {
    email: new EmailReviewDriver(email.url, 32),
    langgraph: new LanggraphEmailDriver(langgraph.url, 32, langgraph.graphId),
    helpdesk: new HelpdeskDriver(helpdesk.url, 32),
    adk: new AdkChatDriver(adk.url, 32, adk.appName),
    helpdeskBareHttp: new HelpdeskDriver(bareHttp.url, 32),
    emailAlone: new InProcessEmailDriver(emulator.openAiBaseUrl),
    helpdeskAlone: new InProcessAdkDriver(emulator.url),
  };
  const emailDriver = (key: SystemKey) => drivers[key] as EmailDriver;
  const chatDriver = (key: SystemKey) => drivers[key] as ChatDriver;
  const results: OverheadRun[] = [];
  let split: ProviderOverheadResult['split'];
  let openAiMs = Number.NaN;
  let geminiMs = Number.NaN;
  try {
    for (const key of SYSTEMS) {
      const iteration = EMAIL_SYSTEMS.has(key)
        ? emailIteration(emailDriver(key), `${tag}-${key}-warm`)
        : chatIteration(chatDriver(key), `${tag}-${key}-warm`);
      await warmUp(iteration, config.warmup);
    }
    // Warm at latency 0 (it is the same code path), then give the provider its realistic latency.
    await emulator.setLatency(latencyMs);
    openAiMs = await calibrate(ctx, 'openai');
    geminiMs = await calibrate(ctx, 'gemini');
    // A spread run starts its workers across one of that system's sequential iterations.
    const sequentialMs: Partial<Record<SystemKey, number>> = {};
    for (const [r, run] of runs.entries()) {
      ctx.log(
        `scenario 3: latency ${latencyMs} ms, concurrency ${run.concurrency} (${run.arrivals}): ${run.lifecycles} lifecycles, ${run.chats} chats per system`,
      );
      const sequential = run.concurrency === 1;
      // Drop the spans of the warm-up and of earlier runs.
      if (sequential) for (const s of [email, helpdesk]) await readTimeline(s.process.pid);
      const res = {} as Record<SystemKey, Measured>;
      for (const key of SYSTEMS) {
        const ramp =
          run.concurrency > 1 && run.arrivals === 'spread' ? (sequentialMs[key] ?? 0) : 0;
        const prefix = `${tag}-r${r}-${key}`;
        res[key] = EMAIL_SYSTEMS.has(key)
          ? await measureEmail(ctx, emailDriver(key), prefix, {
              run,
              callMs: openAiMs,
              rampMs: ramp,
            })
          : await measureChat(ctx, chatDriver(key), prefix, {
              run,
              callMs: geminiMs,
              rampMs: ramp,
            });
      }
      if (sequential) {
        for (const key of SYSTEMS) sequentialMs[key] = res[key].iterationMs;
        split = {
          email: addedTimeParts(
            requestParts(await readTimeline(email.process.pid)),
            res.email.withCallsMs,
            openAiMs,
          ),
          helpdesk: addedTimeParts(
            requestParts(await readTimeline(helpdesk.process.pid)),
            res.helpdesk.withCallsMs,
            geminiMs,
          ),
        };
      }
      results.push({
        concurrency: run.concurrency,
        arrivals: run.arrivals,
        lifecycles: run.lifecycles,
        chats: run.chats,
        systems: {
          email: res.email.overheads,
          langgraph: res.langgraph.overheads,
          helpdesk: res.helpdesk.overheads,
          adk: res.adk.overheads,
        },
        frameworksAlone: {
          email: res.emailAlone.overheads,
          helpdesk: res.helpdeskAlone.overheads,
        },
        helpdeskOverBareHttp: res.helpdeskBareHttp.overheads,
      });
    }
  } finally {
    for (const driver of Object.values(drivers)) driver.close();
    await emulator.setLatency(0);
  }
  await ctx.cleanup();
  return {
    scenario: 3,
    latencyMs,
    directCallMs: { openai: openAiMs, gemini: geminiMs },
    runs: results,
    ...(split ? { split } : {}),
    commands,
  };
}

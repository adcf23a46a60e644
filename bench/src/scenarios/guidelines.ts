import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { createEmailReview, createMemoryPersistence, openPostgresPersistence } from 'email-review';
import { pino } from 'pino';
import type { BenchDatabase } from '../db/bench-database.js';
import { inboundEmail } from '../drivers/email-driver.js';
import { runLoad } from '../load/run-load.js';
import { StepTimer } from '../load/step-timer.js';
import { JsonClient } from '../net/json-client.js';
import { summarize } from '../stats/percentiles.js';
import {
  GuidelinePopulation,
  storeGuidelines,
  type GuidelineStore,
} from './guidelines-population.js';
import {
  GUIDELINE_MODES,
  type GuidelineMode,
  type GuidelinesResult,
  type GuidelinesRound,
  type GuidelineVariant,
} from './results.js';
import type { ScenarioContext } from './scenario-context.js';
import { assertMostlySucceeded, warmUp } from './workloads.js';
import { emulatorLlm, MODEL } from './in-process-llm.js';

const VARIANTS: GuidelineVariant[] = ['with', 'none'];
/**
 * The edited lifecycles' senders are at this domain, which no seeded guideline names: what their
 * derivations learn (the emulator derives domain rules) reaches no measured draft, so `none` stays none.
 */
const EDITED_DOMAIN = 'edited.test';
/** How long the derivations queued by a run may take to be recorded. */
const DERIVATION_WAIT_MS = 60_000;

interface ThreadBody {
  thread_id: string;
  status: string;
  draft: string | null;
  drafted_with?: { guidelines: Array<{ id: string; rule: string }> } | null;
}

/** One variant's email-review, listening in this process. */
interface Served {
  client: JsonClient;
  /** PostgreSQL mode: the service's schema. */
  database?: BenchDatabase;
  /** The service's guideline store (what GET /guidelines lists). */
  store: GuidelineStore;
  /** Edited approvals answered so far: each queued one derivation. */
  edited: number;
  /** How many guidelines each measured unedited draft's prompt carried (its thread's record). */
  carried: number[];
  close(): Promise<void>;
}

/** email-review over `mode`'s storage in this process, its derivation workers running, as deployed. */
async function serve(ctx: ScenarioContext, mode: GuidelineMode, name: string): Promise<Served> {
  const logger = pino({ level: 'silent' });
  const db = mode === 'postgres' ? await ctx.database(name) : undefined;
  const persistence = db
    ? await openPostgresPersistence({
        connectionString: db.url,
        schema: db.schema,
        poolMax: 10,
        logger,
      })
    : createMemoryPersistence();
  const service = createEmailReview({
    persistence,
    llm: emulatorLlm(ctx),
    model: MODEL,
    logger,
  });
  await service.delivery.start();
  await service.guidelines.start();
  const server: Server = service.app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const client = new JsonClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 1);
  return {
    client,
    ...(db ? { database: db } : {}),
    store: service.guidelines.store,
    edited: 0,
    carried: [],
    async close() {
      client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await service.guidelines.stop();
      await service.delivery.stop();
      await persistence.close();
    },
  };
}

/** The reviewer's edit: another greeting and an added reference line (what the emulator learns from). */
function editedText(draft: string, reference: string): string {
  const body = draft.split('\n').slice(1).join('\n').trim();
  return `Hello,\n\n${body}\n\nOrder reference: ${reference}`;
}

async function createThread(served: Served, from: string, inbound: string): Promise<ThreadBody> {
  const thread = (await served.client.expect(
    'POST',
    '/threads',
    { inbound, from },
    [201],
  )) as ThreadBody;
  if (thread.status !== 'awaiting_review' || !thread.draft)
    throw new Error(`create answered status ${thread.status} without a draft`);
  return thread;
}

async function approve(served: Served, threadId: string): Promise<void> {
  const path = `/threads/${encodeURIComponent(threadId)}/approve`;
  const approved = (await served.client.expect('POST', path, {}, [200])) as ThreadBody;
  if (approved.status !== 'sent') throw new Error(`approve answered status ${approved.status}`);
}

/**
 * A draft from a sender with guidelines of every scope (`with`), approved unedited: times `create`
 * and `approve`, and counts the guidelines the draft's prompt carried.
 */
async function uneditedLifecycle(
  served: Served,
  from: string,
  inbound: string,
  timer: StepTimer,
): Promise<void> {
  const thread = await timer.time('create', () => createThread(served, from, inbound));
  served.carried.push(thread.drafted_with?.guidelines.length ?? 0);
  await timer.time('approve', () => approve(served, thread.thread_id));
}

/** A draft edited by the reviewer, then approved (which queues a derivation): times `approve`. */
async function editedLifecycle(
  served: Served,
  from: string,
  inbound: string,
  timer: StepTimer,
): Promise<void> {
  const thread = await createThread(served, from, inbound);
  const path = `/threads/${encodeURIComponent(thread.thread_id)}`;
  await served.client.expect(
    'POST',
    `${path}/edit`,
    { draft: editedText(thread.draft!, thread.thread_id) },
    [200],
  );
  await timer.time('approve', () => approve(served, thread.thread_id));
  served.edited += 1;
}

/** A kind of lifecycle, and whom its `i`th email is from. */
interface LifecycleKind {
  label: string;
  sender(i: number): string;
  run: typeof uneditedLifecycle;
}

const uneditedKind = (population: GuidelinePopulation): LifecycleKind => ({
  label: 'unedited',
  sender: (i) => population.sender(i),
  run: uneditedLifecycle,
});

const EDITED: LifecycleKind = {
  label: 'edited',
  sender: (i) => `customer${i % 50}@${EDITED_DOMAIN}`,
  run: editedLifecycle,
};

const other = (variant: GuidelineVariant): GuidelineVariant =>
  variant === 'with' ? 'none' : 'with';

/**
 * `drafts` lifecycles of `kind` on each variant, sequential, in pairs: the same email to both, each
 * variant first in every other pair, so load that changes over the run weighs on both alike.
 * Returns each variant's step times.
 */
async function alternately(
  ctx: ScenarioContext,
  systems: Record<GuidelineVariant, Served>,
  kind: LifecycleKind,
  tag: string,
): Promise<Record<GuidelineVariant, StepTimer>> {
  const timers = { with: new StepTimer(), none: new StepTimer() };
  const run = await runLoad(
    // Both variants' lifecycles in one run: twice one variant's longest.
    { total: 2 * ctx.config.guidelines.drafts, concurrency: 1, maxMs: 2 * ctx.config.maxRunMs },
    (i) => {
      const pair = Math.floor(i / 2);
      const first: GuidelineVariant = pair % 2 === 0 ? 'with' : 'none';
      const variant = i % 2 === 0 ? first : other(first);
      const inbound = inboundEmail(pair, `${tag}-${variant}-${pair}`);
      return kind.run(systems[variant], kind.sender(pair), inbound, timers[variant]);
    },
  );
  assertMostlySucceeded(`scenario 12 ${kind.label}`, run);
  return timers;
}

/**
 * Waits until every edited approval's derivation is recorded: each teaches the edited domain's
 * greeting, so that guideline cites one source per derivation. The next run starts on a quiet service.
 */
async function derivationsRecorded(served: Served): Promise<number> {
  const deadline = Date.now() + DERIVATION_WAIT_MS;
  for (;;) {
    const learned = await served.store.list({ kind: 'domain', value: EDITED_DOMAIN });
    const recorded = Math.max(0, ...learned.map((g) => g.sources.length));
    if (recorded >= served.edited) return recorded;
    if (Date.now() > deadline)
      throw new Error(
        `scenario 12: ${recorded} of ${served.edited} derivations recorded after ${DERIVATION_WAIT_MS} ms`,
      );
    await delay(20);
  }
}

/**
 * Fails the scenario unless a draft from a seeded sender carries guidelines with them stored (its
 * thread records them, and the draft's request to the provider holds each rule) and none without.
 */
async function checkVariants(
  ctx: ScenarioContext,
  systems: Record<GuidelineVariant, Served>,
  population: GuidelinePopulation,
  tag: string,
): Promise<void> {
  for (const variant of VARIANTS) {
    await ctx.emulator.clearRequests();
    const ref = `${tag}-check-${variant}`;
    const thread = await createThread(systems[variant], population.sender(0), inboundEmail(0, ref));
    const used = thread.drafted_with?.guidelines ?? [];
    const sent = (await ctx.emulator.requests())
      .map((request) => JSON.stringify(request.body))
      .filter((body) => body.includes(ref));
    const inRequest = used.filter((g) =>
      sent.some((body) => body.includes(JSON.stringify(g.rule).slice(1, -1))),
    );
    const withSection = sent.some((body) => body.includes('Reviewer guidelines'));
    const carries = used.length > 0;
    const expected = variant === 'with';
    if (carries !== expected || inRequest.length !== used.length || withSection !== expected)
      throw new Error(
        `scenario 12, guidelines ${variant}: the draft records ${used.length} guidelines, its requests to the provider hold ${inRequest.length}${withSection ? ' in a guidelines section' : ''}`,
      );
  }
}

async function warmUpBoth(
  ctx: ScenarioContext,
  systems: Record<GuidelineVariant, Served>,
  population: GuidelinePopulation,
  tag: string,
): Promise<void> {
  for (const variant of VARIANTS) {
    const served = systems[variant];
    for (const kind of [uneditedKind(population), EDITED]) {
      const warm = `${tag}-warm-${kind.label}-${variant}`;
      await warmUp(
        (i, timer) => kind.run(served, kind.sender(i), inboundEmail(i, `${warm}-${i}`), timer),
        ctx.config.warmup,
      );
    }
    await derivationsRecorded(served);
    served.carried = [];
  }
}

async function measureRound(
  ctx: ScenarioContext,
  systems: Record<GuidelineVariant, Served>,
  population: GuidelinePopulation,
  tag: string,
): Promise<GuidelinesRound> {
  const unedited = await alternately(ctx, systems, uneditedKind(population), `${tag}-u`);
  const edited = await alternately(ctx, systems, EDITED, `${tag}-e`);
  for (const variant of VARIANTS) await derivationsRecorded(systems[variant]);
  const p50 = (timers: Record<GuidelineVariant, StepTimer>, step: string) => ({
    with: summarize(timers.with.of(step)).p50,
    none: summarize(timers.none.of(step)).p50,
  });
  return {
    draftP50: p50(unedited, 'create'),
    approveP50: p50(unedited, 'approve'),
    editedApproveP50: p50(edited, 'approve'),
  };
}

const meanOf = (values: number[]) =>
  values.length ? values.reduce((sum, v) => sum + v, 0) / values.length : Number.NaN;

/**
 * Scenario 12: what choosing a draft's guidelines among many costs, and whether approving is
 * touched. In each storage mode email-review runs in this process over HTTP (the emulator answering
 * at once) with `guidelines` guidelines stored through its own store and with none. Each round:
 * sequential drafts from senders with guidelines of every scope, approved unedited, then drafts
 * edited and approved (each queues a derivation, all recorded before the next run); the variants
 * take turns lifecycle by lifecycle.
 */
export async function guidelinesScenario(ctx: ScenarioContext): Promise<GuidelinesResult> {
  const { guidelines, rounds, drafts } = ctx.config.guidelines;
  await ctx.emulator.setLatency(0);
  const population = new GuidelinePopulation(guidelines);
  const result: GuidelinesResult = {
    scenario: 12,
    guidelines,
    seedMs: { memory: Number.NaN, postgres: Number.NaN },
    drafts,
    perDraft: {
      memory: { with: Number.NaN, none: Number.NaN },
      postgres: { with: Number.NaN, none: Number.NaN },
    },
    derivations: { memory: { with: 0, none: 0 }, postgres: { with: 0, none: 0 } },
    rounds: { memory: [], postgres: [] },
  };
  for (const mode of GUIDELINE_MODES) {
    const tag = `${ctx.runTag}-gl-${mode}`;
    const systems = {
      with: await serve(ctx, mode, 'gl_with'),
      none: await serve(ctx, mode, 'gl_none'),
    };
    try {
      ctx.log(`scenario 12: ${mode}, storing ${guidelines} guidelines`);
      const started = performance.now();
      await storeGuidelines(systems.with.store, population, tag, mode === 'postgres' ? 8 : 1);
      result.seedMs[mode] = performance.now() - started;
      const stored = (await systems.with.store.list({})).length;
      if (stored !== guidelines)
        throw new Error(`scenario 12: ${stored} guidelines stored, not ${guidelines}`);
      // Statistics as autovacuum would have them after the guidelines were learned.
      for (const served of Object.values(systems)) await served.database?.vacuumAnalyze();
      await checkVariants(ctx, systems, population, tag);
      await warmUpBoth(ctx, systems, population, tag);
      for (let round = 0; round < rounds; round += 1) {
        ctx.log(`scenario 12: ${mode}, round ${round + 1} of ${rounds}`);
        result.rounds[mode].push(await measureRound(ctx, systems, population, `${tag}-r${round}`));
      }
      for (const variant of VARIANTS) {
        result.perDraft[mode][variant] = meanOf(systems[variant].carried);
        result.derivations[mode][variant] = await derivationsRecorded(systems[variant]);
      }
      const carried = systems.with.carried;
      if (carried.some((n) => n === 0) || systems.none.carried.some((n) => n > 0))
        throw new Error(
          `scenario 12: a measured draft carried no guidelines with them stored, or some without (${mode})`,
        );
    } finally {
      for (const served of Object.values(systems)) await served.close();
    }
  }
  return result;
}

import { EmailReviewDriver } from '../drivers/email-review-driver.js';
import { HelpdeskDriver } from '../drivers/helpdesk-driver.js';
import type { Iteration, LoadOptions } from '../load/run-load.js';
import { JsonClient } from '../net/json-client.js';
import { summarize } from '../stats/percentiles.js';
import { startEmailReview } from '../systems/email-review-service.js';
import { startHelpdesk } from '../systems/helpdesk-service.js';
import type { RunningSystem } from '../systems/system.js';
import { writeHelpCenterFolder, type HelpCenterFolder } from './help-center-articles.js';
import {
  HELP_CENTER_MODES,
  type HelpCenterMode,
  type HelpCenterResult,
  type HelpCenterRound,
  type KbSearchStats,
} from './results.js';
import type { ScenarioContext } from './scenario-context.js';
import { inboundEmail } from '../drivers/email-driver.js';
import { assertMostlySucceeded, measuredRun, warmUp, type MeasuredRun } from './workloads.js';

/**
 * Questions the sample help center answers, each one the helpdesk's agent (on the emulator)
 * searches it for: a billing or delivery question no other tool fits.
 */
const QUESTIONS = [
  'What is your refund window?',
  'Can I get a refund after 30 days?',
  'How do I cancel my subscription?',
  'What payment methods do you accept?',
  'Do you ship to Canada?',
];

type Variant = 'on' | 'off';

interface ModeSystems {
  email: Record<Variant, RunningSystem>;
  helpdesk: Record<Variant, RunningSystem>;
  loadMs: number;
}

/**
 * One message per chat, in a fresh session: a help center question as a customer writes it. Not
 * tagged as other scenarios' messages are: the agent searches with the message, and in PostgreSQL
 * a word no article holds turns every search into the any-word one.
 */
function questionIteration(driver: HelpdeskDriver, tag: string): Iteration {
  return (i, timer) => driver.chat(`${tag}-${i}`, [QUESTIONS[i % QUESTIONS.length]!], timer);
}

/**
 * One lifecycle per iteration, as other scenarios' (emailIteration), but its email's ref tag is one
 * word of letters no article holds: the tag's words and numbers (`17`, `on`) are held by sample
 * articles, so a draft was searched for them and given those articles, at the cost of a search for
 * one rare word rather than the email's own.
 */
function helpCenterEmailIteration(driver: EmailReviewDriver, tag: string): Iteration {
  const word = (text: string) =>
    text
      .toLowerCase()
      .replace(/[0-9]/g, (digit) => 'abcdefghij'[Number(digit)]!)
      .replace(/[^a-z]/g, '');
  return (i, timer) => driver.lifecycle(inboundEmail(i, word(`${tag}-${i}`)), timer);
}

/**
 * The two services of a mode with the help center (`on`: KB_DIR, in PostgreSQL loaded by
 * email-review into a schema both services share) and without (`off`: no articles). A service with
 * KB_DIR answers ready once the folder is loaded: the load's time is its start's.
 */
async function startMode(
  ctx: ScenarioContext,
  mode: HelpCenterMode,
  folder: HelpCenterFolder,
): Promise<ModeSystems> {
  const emulatorUrl = ctx.emulator.url;
  const database = async (name: string) => {
    if (mode === 'memory') return {};
    const db = await ctx.database(name);
    return { database: { url: db.url, schema: db.schema } };
  };
  const kbDatabase = mode === 'postgres' ? await ctx.database('hc_kb') : undefined;
  const onKb = kbDatabase?.schema;
  const offKb = mode === 'postgres' ? (await ctx.database('hc_kb_off')).schema : undefined;
  const started = performance.now();
  const emailOn = await ctx.start(
    startEmailReview({
      emulatorUrl,
      ...(await database('hc_email_on')),
      helpCenter: { dir: folder.dir, ...(onKb ? { schema: onKb } : {}) },
    }),
  );
  const loadMs = performance.now() - started;
  // Statistics as autovacuum would have them on tables that size.
  await kbDatabase?.vacuumAnalyze();
  const emailOff = await ctx.start(
    startEmailReview({
      emulatorUrl,
      ...(await database('hc_email_off')),
      ...(offKb ? { helpCenter: { schema: offKb } } : {}),
    }),
  );
  // In PostgreSQL the helpdesk shares the knowledge base email-review loaded (same database and KB_SCHEMA).
  const helpdeskOn = await ctx.start(
    startHelpdesk({
      emulatorUrl,
      ...(await database('hc_helpdesk_on')),
      helpCenter: onKb ? { schema: onKb } : { dir: folder.dir },
    }),
  );
  const helpdeskOff = await ctx.start(
    startHelpdesk({
      emulatorUrl,
      ...(await database('hc_helpdesk_off')),
      ...(offKb ? { helpCenter: { schema: offKb } } : {}),
    }),
  );
  return {
    email: { on: emailOn, off: emailOff },
    helpdesk: { on: helpdeskOn, off: helpdeskOff },
    loadMs,
  };
}

/**
 * Fails the scenario when the `on` services do not use the help center or the `off` ones do: a
 * draft's thread has a grounding with articles stored (null without), and the refund question's
 * answer cites its sources.
 */
async function checkVariants(systems: ModeSystems, tag: string): Promise<void> {
  for (const variant of ['on', 'off'] as const) {
    const email = new JsonClient(systems.email[variant].url, 1);
    const helpdesk = new JsonClient(systems.helpdesk[variant].url, 1);
    try {
      const thread = (await email.expect(
        'POST',
        '/threads',
        { inbound: `What is your refund window? Ref: ${tag}-check-${variant}` },
        [201],
      )) as { grounding?: unknown };
      const chat = (await helpdesk.expect(
        'POST',
        '/chat',
        { session_id: `${tag}-check-${variant}`, message: QUESTIONS[0] },
        [200],
      )) as { sources?: unknown[] };
      const grounded = thread.grounding != null;
      const cited = (chat.sources?.length ?? 0) > 0;
      if (grounded !== (variant === 'on') || cited !== (variant === 'on'))
        throw new Error(
          `help center ${variant}: the draft's grounding is ${JSON.stringify(thread.grounding)}, the answer has ${chat.sources?.length ?? 0} sources`,
        );
    } finally {
      email.close();
      helpdesk.close();
    }
  }
}

/** `metric`'s count, sum and first bucket (5 ms) from a service's /metrics. */
async function searchStats(url: string, metric: string): Promise<KbSearchStats | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (pattern: string) => {
    const line = text.split('\n').find((l) => l.startsWith(pattern));
    return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  const count = value(`${metric}_count`);
  const sum = value(`${metric}_sum`);
  const within5ms = value(`${metric}_bucket{le="0.005"}`);
  if (!count || sum === undefined || within5ms === undefined) return undefined;
  return { count, within5ms, meanMs: (1000 * sum) / count };
}

/**
 * Warms each service up: a few sequential iterations, and for email-review `warmLifecycles` at the
 * measured concurrency, so that the lifecycles are compared as a long-running service runs them
 * (its CPU per lifecycle still falls for several hundred lifecycles after the start).
 */
async function warmUpAll(ctx: ScenarioContext, systems: ModeSystems, tag: string): Promise<void> {
  const { warmLifecycles, concurrency } = ctx.config.helpCenter;
  for (const variant of ['on', 'off'] as const) {
    const email = new EmailReviewDriver(systems.email[variant].url, concurrency);
    const helpdesk = new HelpdeskDriver(systems.helpdesk[variant].url, 1);
    try {
      await warmUp(helpCenterEmailIteration(email, `${tag}-warm-${variant}`), ctx.config.warmup);
      await warmUp(
        helpCenterEmailIteration(email, `${tag}-warm-load-${variant}`),
        warmLifecycles,
        concurrency,
      );
      await warmUp(questionIteration(helpdesk, `${tag}-warm-${variant}`), ctx.config.warmup);
    } finally {
      email.close();
      helpdesk.close();
    }
  }
}

/** A load run on one variant's service with a driver of its own, closed afterwards. */
async function runOn<D extends { close(): void }>(
  label: string,
  system: RunningSystem,
  options: LoadOptions,
  { driver, iteration }: { driver: D; iteration: (driver: D) => Iteration },
): Promise<MeasuredRun> {
  try {
    const run = await measuredRun(system, options, iteration(driver));
    assertMostlySucceeded(`scenario 11 ${label}`, run);
    return run;
  } finally {
    driver.close();
  }
}

async function measureRound(
  ctx: ScenarioContext,
  systems: ModeSystems,
  tag: string,
  round: number,
): Promise<HelpCenterRound> {
  const { drafts, chats, lifecycles, concurrency } = ctx.config.helpCenter;
  // Each variant goes first in every other round, so neither gains from running after the other.
  const order: Variant[] = round % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
  const result: HelpCenterRound = {
    draftP50: { on: Number.NaN, off: Number.NaN },
    messageP50: { on: Number.NaN, off: Number.NaN },
    lifecyclesPerSecond: { on: Number.NaN, off: Number.NaN },
    lifecycleCpuMs: { on: Number.NaN, off: Number.NaN },
  };
  const email = (variant: Variant, workers: number) =>
    new EmailReviewDriver(systems.email[variant].url, workers);
  for (const variant of order) {
    const run = await runOn(
      `drafts ${variant}`,
      systems.email[variant],
      { total: drafts, concurrency: 1 },
      {
        driver: email(variant, 1),
        iteration: (driver) => helpCenterEmailIteration(driver, `${tag}-d${round}-${variant}`),
      },
    );
    result.draftP50[variant] = summarize(run.steps.of('create')).p50;
  }
  for (const variant of order) {
    const run = await runOn(
      `questions ${variant}`,
      systems.helpdesk[variant],
      { total: chats, concurrency: 1 },
      {
        driver: new HelpdeskDriver(systems.helpdesk[variant].url, 1),
        iteration: (driver) => questionIteration(driver, `${tag}-q${round}-${variant}`),
      },
    );
    result.messageP50[variant] = summarize(run.steps.of('message')).p50;
  }
  for (const variant of order) {
    const run = await runOn(
      `lifecycles ${variant}`,
      systems.email[variant],
      { total: lifecycles, concurrency, maxMs: ctx.config.maxRunMs },
      {
        driver: email(variant, concurrency),
        iteration: (driver) => helpCenterEmailIteration(driver, `${tag}-l${round}-${variant}`),
      },
    );
    result.lifecyclesPerSecond[variant] = run.perSecond;
    result.lifecycleCpuMs![variant] = run.cpuMsPerIteration;
  }
  return result;
}

/**
 * Scenario 11: what a help center of 10,000 articles costs. In each storage mode, email-review and
 * the helpdesk run as deployed (child processes) with KB_DIR and without a help center, the
 * emulator answering at once; round by round, each variant taking turns: sequential drafts
 * (POST /threads), sequential help center questions (POST /chat, one per session), and
 * lifecycles at concurrency 8.
 */
export async function helpCenterScenario(ctx: ScenarioContext): Promise<HelpCenterResult> {
  const { articles, rounds, drafts, chats, lifecycles, concurrency, warmLifecycles } =
    ctx.config.helpCenter;
  await ctx.emulator.setLatency(0);
  const folder = await writeHelpCenterFolder(articles);
  const result: HelpCenterResult = {
    scenario: 11,
    articles: folder.articles,
    loadMs: { memory: Number.NaN, postgres: Number.NaN },
    drafts,
    chats,
    lifecycles,
    concurrency,
    warmLifecycles,
    rounds: { memory: [], postgres: [] },
    searches: { memory: {}, postgres: {} },
    commands: [],
  };
  try {
    for (const mode of HELP_CENTER_MODES) {
      ctx.log(`scenario 11: ${mode}, starting with ${folder.articles} articles`);
      const systems = await startMode(ctx, mode, folder);
      result.loadMs[mode] = systems.loadMs;
      const all = [...Object.values(systems.email), ...Object.values(systems.helpdesk)];
      result.commands.push(...all.map((system) => system.process.commandLine));
      const tag = `${ctx.runTag}-hc-${mode}`;
      await checkVariants(systems, tag);
      await warmUpAll(ctx, systems, tag);
      for (let round = 0; round < rounds; round += 1) {
        ctx.log(`scenario 11: ${mode}, round ${round + 1} of ${rounds}`);
        result.rounds[mode].push(await measureRound(ctx, systems, tag, round));
      }
      const email = await searchStats(systems.email.on.url, 'email_review_kb_search_seconds');
      const helpdesk = await searchStats(systems.helpdesk.on.url, 'helpdesk_kb_search_seconds');
      result.searches[mode] = { ...(email ? { email } : {}), ...(helpdesk ? { helpdesk } : {}) };
      for (const system of all) await ctx.stop(system);
    }
  } finally {
    await folder.remove();
  }
  return result;
}

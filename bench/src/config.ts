import { parseArgs } from 'node:util';
import { z } from 'zod';
import { paths } from './repo-paths.js';

/** Iterations for one system at one concurrency: the project is fast, the peers are not. */
export interface RunCounts {
  project: number;
  peer: number;
}

export interface BenchConfig {
  scale: string;
  outFile: string;
  /** Scenario ids to run (1–12). */
  only: number[];
  databaseUrl: string;
  /** No run lasts longer than this; the table reports how many iterations completed. */
  maxRunMs: number;
  /** Iterations run (and thrown away) on each system before it is measured. */
  warmup: number;
  concurrencies: number[];
  email: Record<'sequential' | 'concurrent8' | 'concurrent32', RunCounts>;
  chat: Record<'sequential' | 'concurrent8' | 'concurrent32', RunCounts>;
  /** Scenario 3: one run per entry, each with its own concurrency and counts. */
  overhead: {
    latencyMs: number;
    runs: Array<{
      concurrency: number;
      lifecycles: number;
      chats: number;
      /**
       * `spread`: the workers start one after another across one sequential iteration, as
       * independent users arrive; `together`: all in the same millisecond (a burst, which a
       * fixed provider latency then keeps in step).
       */
      arrivals: 'spread' | 'together';
    }>;
  };
  growth: {
    /** Existing completed threads at the two measuring points. */
    emailThreads: [number, number];
    emailMeasure: number;
    /** Threads seeded through the API before the rest is cloned in SQL (when the API is too slow). */
    seedApiBudgetMs: number;
    seedConcurrency: number;
    /** Sessions (of 5 turns) at the two memory measuring points, and MAX_SESSIONS (below both). */
    helpdeskSessions: [number, number];
    maxSessions: number;
    longSessionTurns: number;
    /** Pause before reading a process's RSS, so timers and GC after a burst have run. */
    settleMs: number;
  };
  /** Scenario 5: rounds in which every variant takes a turn, and each variant's work per round. */
  patches: { rounds: number; emailLifecycles: number; concurrency: number };
  /** Scenario 8: email-review lifecycles per round at `concurrency`, each of metrics and tracing on and off. */
  observability: { rounds: number; lifecycles: number; concurrency: number };
  /** Scenario 10: email-review (PostgreSQL) lifecycles per round at `concurrency`, with and without a webhook endpoint. */
  webhooks: { rounds: number; lifecycles: number; concurrency: number };
  /**
   * Scenario 11: a help center of `articles` articles; per round, `drafts` sequential lifecycles and
   * `chats` sequential help center questions on each variant, and `lifecycles` at `concurrency`.
   * Before the first round each email-review runs `warmLifecycles` at `concurrency`, unmeasured.
   */
  helpCenter: {
    articles: number;
    rounds: number;
    warmLifecycles: number;
    drafts: number;
    chats: number;
    lifecycles: number;
    concurrency: number;
  };
  /**
   * Scenario 12: `guidelines` learned guidelines stored; per round, on each variant, `drafts`
   * sequential lifecycles approved unedited and `drafts` approved after an edit.
   */
  guidelines: { guidelines: number; rounds: number; drafts: number };
  /** Scenario 7: messages timed per way of asking, with the emulator at `latencyMs` per call. */
  streaming: { latencyMs: number; messages: number };
  /** Profile the project's service for missed targets, at most `maxProfiles` times per run. */
  profileMisses: boolean;
  maxProfiles: number;
  /** Keep systems running across scenarios (smoke only: the peers' CLIs are slow to start). */
  reuseSystems: boolean;
  profileIterations: number;
  /** Progress lines on stderr (`--progress`, `BENCH_PROGRESS=true`); off unless asked, e.g. in the test run. */
  progress: boolean;
}

const FULL: Omit<BenchConfig, 'scale' | 'outFile' | 'only' | 'databaseUrl' | 'progress'> = {
  maxRunMs: 20_000,
  warmup: 5,
  concurrencies: [1, 8, 32],
  email: {
    sequential: { project: 200, peer: 25 },
    concurrent8: { project: 1200, peer: 96 },
    concurrent32: { project: 640, peer: 192 },
  },
  chat: {
    sequential: { project: 60, peer: 30 },
    concurrent8: { project: 160, peer: 80 },
    concurrent32: { project: 320, peer: 160 },
  },
  overhead: {
    latencyMs: 300,
    runs: [
      { concurrency: 1, lifecycles: 40, chats: 10, arrivals: 'together' },
      { concurrency: 8, lifecycles: 64, chats: 24, arrivals: 'spread' },
      { concurrency: 8, lifecycles: 64, chats: 24, arrivals: 'together' },
    ],
  },
  growth: {
    emailThreads: [1_000, 20_000],
    emailMeasure: 600,
    seedApiBudgetMs: 90_000,
    seedConcurrency: 32,
    helpdeskSessions: [1_000, 20_000],
    maxSessions: 500,
    longSessionTurns: 30,
    settleMs: 1_000,
  },
  patches: { rounds: 5, emailLifecycles: 160, concurrency: 8 },
  observability: { rounds: 5, lifecycles: 300, concurrency: 8 },
  webhooks: { rounds: 7, lifecycles: 200, concurrency: 8 },
  helpCenter: {
    articles: 10_000,
    rounds: 7,
    warmLifecycles: 600,
    drafts: 40,
    chats: 20,
    lifecycles: 400,
    concurrency: 8,
  },
  guidelines: { guidelines: 5_000, rounds: 7, drafts: 50 },
  streaming: { latencyMs: 300, messages: 20 },
  profileMisses: true,
  maxProfiles: 6,
  reuseSystems: false,
  profileIterations: 200,
};

/** Tiny counts: proves every path of the harness in well under a minute (the jest smoke test). */
const SMOKE: typeof FULL = {
  maxRunMs: 5_000,
  warmup: 1,
  concurrencies: [1, 8, 32],
  email: {
    sequential: { project: 3, peer: 2 },
    concurrent8: { project: 8, peer: 8 },
    concurrent32: { project: 16, peer: 16 },
  },
  chat: {
    sequential: { project: 2, peer: 1 },
    concurrent8: { project: 4, peer: 4 },
    concurrent32: { project: 8, peer: 8 },
  },
  overhead: {
    latencyMs: 50,
    runs: [
      { concurrency: 1, lifecycles: 2, chats: 1, arrivals: 'together' },
      { concurrency: 4, lifecycles: 4, chats: 2, arrivals: 'spread' },
      { concurrency: 4, lifecycles: 4, chats: 2, arrivals: 'together' },
    ],
  },
  growth: {
    emailThreads: [20, 200],
    emailMeasure: 8,
    seedApiBudgetMs: 2_000,
    seedConcurrency: 8,
    helpdeskSessions: [10, 30],
    maxSessions: 5,
    longSessionTurns: 6,
    settleMs: 100,
  },
  patches: { rounds: 1, emailLifecycles: 4, concurrency: 2 },
  observability: { rounds: 1, lifecycles: 4, concurrency: 2 },
  webhooks: { rounds: 1, lifecycles: 4, concurrency: 2 },
  helpCenter: {
    articles: 60,
    rounds: 1,
    warmLifecycles: 4,
    drafts: 3,
    chats: 2,
    lifecycles: 4,
    concurrency: 2,
  },
  guidelines: { guidelines: 100, rounds: 1, drafts: 3 },
  streaming: { latencyMs: 300, messages: 3 },
  profileMisses: true,
  maxProfiles: 1,
  reuseSystems: true,
  profileIterations: 8,
};

function scaled(factor: number): typeof FULL {
  const n = (x: number) => Math.max(1, Math.round(x * factor));
  const counts = (c: RunCounts) => ({ project: n(c.project), peer: n(c.peer) });
  return {
    ...FULL,
    email: {
      sequential: counts(FULL.email.sequential),
      concurrent8: counts(FULL.email.concurrent8),
      concurrent32: counts(FULL.email.concurrent32),
    },
    chat: {
      sequential: counts(FULL.chat.sequential),
      concurrent8: counts(FULL.chat.concurrent8),
      concurrent32: counts(FULL.chat.concurrent32),
    },
    overhead: {
      ...FULL.overhead,
      runs: FULL.overhead.runs.map((r) => ({
        ...r,
        lifecycles: n(r.lifecycles),
        chats: n(r.chats),
      })),
    },
    streaming: { ...FULL.streaming, messages: n(FULL.streaming.messages) },
    growth: {
      ...FULL.growth,
      emailThreads: [n(FULL.growth.emailThreads[0]), n(FULL.growth.emailThreads[1])],
      emailMeasure: n(FULL.growth.emailMeasure),
      helpdeskSessions: [n(FULL.growth.helpdeskSessions[0]), n(FULL.growth.helpdeskSessions[1])],
    },
    patches: {
      ...FULL.patches,
      emailLifecycles: n(FULL.patches.emailLifecycles),
    },
    observability: { ...FULL.observability, lifecycles: n(FULL.observability.lifecycles) },
    webhooks: { ...FULL.webhooks, lifecycles: n(FULL.webhooks.lifecycles) },
    helpCenter: {
      ...FULL.helpCenter,
      drafts: n(FULL.helpCenter.drafts),
      chats: n(FULL.helpCenter.chats),
      lifecycles: n(FULL.helpCenter.lifecycles),
      warmLifecycles: n(FULL.helpCenter.warmLifecycles),
    },
    guidelines: { ...FULL.guidelines, drafts: n(FULL.guidelines.drafts) },
  };
}

const envSchema = z.object({
  BENCH_SCALE: z.string().default('full'),
  BENCH_OUT: z.string().optional(),
  BENCH_ONLY: z.string().optional(),
  BENCH_DATABASE_URL: z.string().optional(),
  TEST_DATABASE_URL: z.string().optional(),
  BENCH_HELPDESK_SESSIONS: z.coerce.number().int().positive().optional(),
  BENCH_EMAIL_THREADS: z.coerce.number().int().positive().optional(),
  BENCH_MAX_RUN_MS: z.coerce.number().int().positive().optional(),
  BENCH_PROGRESS: z.enum(['true', 'false', '1', '0']).optional(),
});

/**
 * Settings from flags (`--scale smoke|full|<factor>`, `--out file`, `--only 1,3`, `--progress`) over env
 * (`BENCH_SCALE`, `BENCH_OUT`, `BENCH_ONLY`, `BENCH_DATABASE_URL`, `BENCH_HELPDESK_SESSIONS`,
 * `BENCH_EMAIL_THREADS`, `BENCH_MAX_RUN_MS`, `BENCH_PROGRESS`).
 */
export function loadConfig(argv: string[], env: Record<string, string | undefined>): BenchConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      scale: { type: 'string' },
      out: { type: 'string' },
      only: { type: 'string' },
      progress: { type: 'boolean' },
    },
    allowPositionals: false,
  });
  const e = envSchema.parse(env);
  const scale = values.scale ?? e.BENCH_SCALE;
  const factor = Number(scale);
  const base =
    scale === 'smoke'
      ? SMOKE
      : scale === 'full'
        ? FULL
        : Number.isFinite(factor) && factor > 0
          ? scaled(factor)
          : undefined;
  if (!base)
    throw new Error(`BENCH_SCALE must be smoke, full or a positive factor, not "${scale}"`);
  const only = (values.only ?? e.BENCH_ONLY ?? '1,2,3,4,5,6,7,8,9,10,11,12')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].includes(n));
  const growth = { ...base.growth };
  if (e.BENCH_HELPDESK_SESSIONS)
    growth.helpdeskSessions = [growth.helpdeskSessions[0], e.BENCH_HELPDESK_SESSIONS];
  if (e.BENCH_EMAIL_THREADS) growth.emailThreads = [growth.emailThreads[0], e.BENCH_EMAIL_THREADS];
  return {
    ...base,
    growth,
    maxRunMs: e.BENCH_MAX_RUN_MS ?? base.maxRunMs,
    scale,
    outFile: values.out ?? e.BENCH_OUT ?? paths.defaultReport,
    only,
    databaseUrl:
      e.BENCH_DATABASE_URL ?? e.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    progress: values.progress ?? ['true', '1'].includes(e.BENCH_PROGRESS ?? ''),
  };
}

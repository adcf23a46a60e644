import type OpenAI from 'openai';
import type pg from 'pg';
import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import type { JobRunner } from '../jobs/job-runner.js';
import type { ThreadStore } from '../threads/thread-store.js';
import { deriveGuidelines, type DerivationInput } from './derive-guidelines.js';
import {
  inProcessDerivation,
  queuedDerivation,
  type RunDerivation,
} from './guideline-derivation.js';
import { guidelineRoutes } from './guideline-routes.js';
import { scopesFor, type GuidelineSource, type UsedGuideline } from './guideline.js';
import { MemoryGuidelines } from './memory-guidelines.js';
import { PostgresGuidelines } from './postgres-guidelines.js';

/**
 * A derivation's job is anyone's once its worker held it this long (default: the model work's
 * lease, MODEL_JOB_LEASE_SECONDS); its model call retries within the step budget (LLM_RETRY_BUDGET_MS).
 */
export interface DerivationSettings {
  leaseSeconds?: number | undefined;
  modelBudgetMs?: number | undefined;
}

const DEFAULT_LEASE_SECONDS = 120;

/** The most guidelines one draft's prompt carries. */
const GUIDELINES_PER_DRAFT = 8;

/** What the draft step asks: the guidelines for an email's sender, domain and category, in order. */
export interface DraftGuidelines {
  forDraft(email: { from: string | null; category: string | null }): Promise<UsedGuideline[]>;
}

/** How guidelines are chosen for a draft (part of the pipeline version). */
export const GUIDELINE_SELECTION = {
  per_draft: GUIDELINES_PER_DRAFT,
  order: 'sender,domain,category,global;sources;newest',
};

const sourceOf = (input: DerivationInput): GuidelineSource => ({
  thread_id: input.thread_id,
  revision: input.revision,
  actor: input.actor,
  at: input.at,
  kind: input.approved !== undefined ? 'edited' : 'instructions',
});

/**
 * Guidelines learned from reviewers: the store (PostgreSQL beside the threads, or memory), the
 * derivation queued by approvals and redrafts, what the draft step reads, and the routes.
 */
export function openReviewerGuidelines(deps: {
  database?: { pool: pg.Pool; schema: string; jobs: JobRunner } | undefined;
  llm: OpenAI;
  model: string;
  threads: Pick<ThreadStore, 'get'>;
  logger: Logger;
  registry?: Registry | undefined;
  clock?: (() => Date) | undefined;
  settings?: DerivationSettings | undefined;
}) {
  const clock = deps.clock ?? (() => new Date());
  const store = deps.database
    ? new PostgresGuidelines(deps.database.pool, deps.database.schema)
    : new MemoryGuidelines();
  const derivations = new Counter({
    name: 'email_review_guideline_jobs_total',
    help: 'Guideline derivations by outcome: derived (guidelines recorded, maybe none), failed (after its retries).',
    labelNames: ['outcome'] as const,
    registers: deps.registry ? [deps.registry] : [],
  });
  const run: RunDerivation = async (input, jobId, lastAttempt) => {
    try {
      // Read only to strip the customer's words from what the model is shown.
      const inbound = (await deps.threads.get(input.thread_id))?.inbound;
      const rules = await deriveGuidelines(
        { llm: deps.llm, model: deps.model, retry: { budgetMs: deps.settings?.modelBudgetMs } },
        input,
        inbound,
      );
      const learned = await store.learn(jobId, rules, sourceOf(input), clock().toISOString());
      derivations.inc({ outcome: 'derived' });
      deps.logger.info(
        { thread_id: input.thread_id, guidelines: learned.map((g) => g.id) },
        'guidelines derived',
      );
    } catch (error) {
      if (lastAttempt) {
        derivations.inc({ outcome: 'failed' });
        deps.logger.warn({ err: error, thread_id: input.thread_id }, 'guideline derivation failed');
      }
      throw error;
    }
  };
  const derivation = deps.database
    ? queuedDerivation(
        deps.database.jobs,
        run,
        deps.settings?.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
      )
    : inProcessDerivation(run, deps.logger);
  return {
    store,
    derivation,
    forDraft: {
      async forDraft({ from, category }) {
        const chosen = await store.forDraft(scopesFor(from, category), GUIDELINES_PER_DRAFT);
        return chosen.map(({ id, rule }) => ({ id, rule }));
      },
    } satisfies DraftGuidelines,
    routes: guidelineRoutes(store, clock),
    start: () => derivation.start(),
    stop: () => derivation.stop(),
  };
}

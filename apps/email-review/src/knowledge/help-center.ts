import type { Logger } from '@repo/http-kit';
import {
  DEFAULT_KB_SCHEMA,
  helpCenterMetrics,
  knowledgeTablesMigration,
  openHelpCenter as openKnowledgeHelpCenter,
  type HelpCenterSettings,
  type SearchHit,
} from '@repo/knowledge';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import type { Grounding } from './grounding.js';

export type { HelpCenterSettings } from '@repo/knowledge';

/** How many passages a draft is given. */
export const DRAFT_PASSAGES = 5;

/** The most of an email a search reads: its subject and first lines say what it asks. */
const QUERY_MAX_CHARS = 1_000;

/** What the draft step asks of the help center. */
export interface DraftRetrieval {
  /**
   * The best passages for an email, best first; undefined when the knowledge base holds no
   * article at all (the service has no help center: drafts are not grounded, nor flagged).
   */
  passagesFor(email: { subject: string | null; inbound: string }): Promise<SearchHit[] | undefined>;
  /** Told of each checked draft (metrics). */
  observe(grounding: Grounding): void;
}

/**
 * The knowledge base the draft step and the /kb routes share (@repo/knowledge's openHelpCenter): in
 * PostgreSQL the service's database, schema KB_SCHEMA (shared with a helpdesk on the same schema);
 * in memory otherwise.
 */
export function openHelpCenter(options: {
  settings: HelpCenterSettings;
  /** The service's query pool, in PostgreSQL mode. */
  pool?: pg.Pool | undefined;
  logger: Logger;
  registry?: Registry | undefined;
}) {
  const helpCenter = openKnowledgeHelpCenter({
    settings: options.settings,
    database: options.pool && { pool: options.pool },
    logger: options.logger,
  });
  const metrics = helpCenterMetrics(options.registry, {
    searchSeconds: {
      name: 'email_review_kb_search_seconds',
      help: 'How long retrieving the help center passages for a draft took.',
    },
    answers: {
      name: 'email_review_drafts_total',
      help: 'Model drafts with a help center, by grounding (grounded: cites a retrieved article; none).',
      label: 'grounding',
    },
    citationsRemoved: {
      name: 'email_review_citations_removed_total',
      help: 'Citations removed from drafts: articles not retrieved for the draft.',
    },
  });
  const migration = knowledgeTablesMigration(options.settings.schema ?? DEFAULT_KB_SCHEMA);
  // Made once, by start() or by the first draft (a service wired without calling start()), under
  // the schema's own lock (helpdesk may set it up at the same time).
  let tables: Promise<void> | undefined;
  const ensureTables = () =>
    (tables ??= (async () => {
      await options.pool?.query(migration);
    })().catch((error: unknown) => {
      tables = undefined;
      throw error;
    }));
  let tablesFailed = false;
  const folderCheck = helpCenter.readiness;
  return {
    kb: helpCenter.kb,
    retrieval: {
      passagesFor: async ({ subject, inbound }) => {
        await ensureTables();
        const query = [subject, inbound].filter(Boolean).join('\n').slice(0, QUERY_MAX_CHARS);
        return metrics.timed(() => helpCenter.kb.searchIfAny(query, { limit: DRAFT_PASSAGES }));
      },
      observe: (grounding) =>
        metrics.observeAnswer(grounding.status, grounding.removed_citations.length),
    } satisfies DraftRetrieval,
    /** Makes the tables (PostgreSQL), then loads KB_DIR and watches it. */
    start: async () => {
      await ensureTables().catch((error: unknown) => {
        tablesFailed = true;
        throw error;
      });
      await helpCenter.start();
    },
    /** With KB_DIR, `/readyz`'s `help_center`; `not_loaded` too when start() could not make the tables. */
    readiness: folderCheck && {
      name: folderCheck.name,
      check: () => (tablesFailed ? 'not_loaded' : folderCheck.check()),
    },
    close: helpCenter.close,
  };
}

import type { Logger } from '@repo/http-kit';
import {
  DEFAULT_KB_SCHEMA,
  knowledgeTablesMigration,
  openHelpCenter as openKnowledgeHelpCenter,
  type HelpCenterSettings,
  type SearchHit,
} from '@repo/knowledge';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { helpCenterMetrics } from './help-center-metrics.js';
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
 * PostgreSQL the service's database (its pool is guarded: 503 `database_unavailable` while it is
 * away), schema KB_SCHEMA (helpdesk on the same database and schema shares it); in memory
 * otherwise. `start()` makes the tables, then loads KB_DIR and watches it.
 */
export function openHelpCenter(options: {
  settings: HelpCenterSettings;
  /** The service's query pool, in PostgreSQL mode. */
  pool?: pg.Pool | undefined;
  logger: Logger;
  registry?: Registry | undefined;
}) {
  const schema = options.settings.schema ?? DEFAULT_KB_SCHEMA;
  const helpCenter = openKnowledgeHelpCenter({
    settings: options.settings,
    database: options.pool && { pool: options.pool },
    logger: options.logger,
  });
  const { kb } = helpCenter;
  const metrics = helpCenterMetrics(options.registry);
  let tables: Promise<void> | undefined;
  // Made once, by start() or by the first draft (a service wired without calling start()).
  const ensureTables = () =>
    (tables ??= (async () => {
      // One statement list, under the schema's own lock (helpdesk may set it up at the same time).
      await options.pool?.query(knowledgeTablesMigration(schema));
    })().catch((error: unknown) => {
      tables = undefined;
      throw error;
    }));
  const folderCheck = helpCenter.readiness;
  let tablesFailed = false;
  const retrieval: DraftRetrieval = {
    passagesFor: async ({ subject, inbound }) => {
      await ensureTables();
      const query = [subject, inbound].filter(Boolean).join('\n').slice(0, QUERY_MAX_CHARS);
      return metrics.timed(() => kb.searchIfAny(query, { limit: DRAFT_PASSAGES }));
    },
    observe: metrics.observeDraft,
  };
  return {
    kb,
    retrieval,
    /**
     * Makes the schema and tables (PostgreSQL), then loads KB_DIR (a broken file is named in one
     * warn line and skipped) and watches it; a folder that cannot be read is one error line.
     */
    start: async () => {
      await ensureTables().catch((error: unknown) => {
        tablesFailed = true;
        throw error;
      });
      await helpCenter.start();
    },
    /**
     * `/readyz`'s `help_center` with KB_DIR: `loading` (503) until the folder's first load ended;
     * `not_loaded` when start() could not make the tables (logged by the caller).
     */
    readiness: folderCheck && {
      name: folderCheck.name,
      check: () => (tablesFailed ? 'not_loaded' : folderCheck.check()),
    },
    close: helpCenter.close,
  };
}

export type HelpCenter = ReturnType<typeof openHelpCenter>;

import type { Logger } from '@repo/http-kit';
import {
  knowledgeTablesMigration,
  MemoryKnowledgeBase,
  PostgresKnowledgeBase,
  watchHelpCenter,
  type HelpCenterWatch,
  type KnowledgeBase,
  type SearchHit,
} from '@repo/knowledge';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { helpCenterMetrics } from './help-center-metrics.js';
import type { Grounding } from './grounding.js';

/** The help center: a knowledge base (KB_SCHEMA in PostgreSQL, else memory) and its folder (KB_DIR). */
export interface HelpCenterSettings {
  /** KB_DIR: a folder of markdown articles loaded at start and watched; unset, none. */
  dir?: string | undefined;
  /** KB_SCHEMA: the knowledge base's schema when the service has a database (default `knowledge`). */
  schema?: string | undefined;
  /** Wait for the folder to be quiet this long before loading changes (default 250 ms). */
  debounceMs?: number | undefined;
}

export const DEFAULT_KB_SCHEMA = 'knowledge';

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
 * The knowledge base the draft step and the /kb routes share. With a database it lives in the
 * service's database, schema KB_SCHEMA (helpdesk on the same database and schema shares it), its
 * tables made by `start()`; in memory otherwise. `start()` also loads KB_DIR and watches it.
 */
export function openHelpCenter(options: {
  settings: HelpCenterSettings;
  /** The service's query pool, in PostgreSQL mode. */
  pool?: pg.Pool | undefined;
  logger: Logger;
  registry?: Registry | undefined;
}) {
  const { settings, logger } = options;
  const schema = settings.schema ?? DEFAULT_KB_SCHEMA;
  const kb: KnowledgeBase = options.pool
    ? new PostgresKnowledgeBase({ pool: options.pool, schema })
    : new MemoryKnowledgeBase();
  const metrics = helpCenterMetrics(options.registry);
  let tables: Promise<void> | undefined;
  // Made once, by start() or by the first use (a service wired without calling start()).
  const ensureTables = () =>
    (tables ??= (async () => {
      // One statement list, under the schema's own lock (helpdesk may set it up at the same time).
      await options.pool?.query(knowledgeTablesMigration(schema));
    })().catch((error: unknown) => {
      tables = undefined;
      throw error;
    }));
  const retrieval: DraftRetrieval = {
    passagesFor: async ({ subject, inbound }) => {
      await ensureTables();
      const query = [subject, inbound].filter(Boolean).join('\n').slice(0, QUERY_MAX_CHARS);
      return metrics.timed(async () => {
        const hits = await kb.search(query, { limit: DRAFT_PASSAGES });
        if (hits.length > 0) return hits;
        const { articles } = await kb.list({ limit: 1 });
        return articles.length > 0 ? hits : undefined;
      });
    },
    observe: metrics.observeDraft,
  };
  let watch: HelpCenterWatch | undefined;
  let closed = false;
  return {
    kb,
    retrieval,
    /**
     * Makes the schema and tables (PostgreSQL), then loads KB_DIR (a broken file is named in one warn line and skipped) and watches it.
     * A folder that cannot be read is one error line: the service runs with the articles it has.
     */
    start: async () => {
      await ensureTables();
      if (!settings.dir || watch || closed) return;
      try {
        watch = await watchHelpCenter(
          settings.dir,
          kb,
          logger.child({ component: 'help-center' }),
          settings.debounceMs !== undefined ? { debounceMs: settings.debounceMs } : {},
        );
      } catch (error) {
        logger.error({ err: error, dir: settings.dir }, 'help center folder not loaded');
      }
    },
    close: async () => {
      closed = true;
      await watch?.close();
    },
  };
}

export type HelpCenter = ReturnType<typeof openHelpCenter>;

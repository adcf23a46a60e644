import type { Logger } from '@repo/http-kit';
import {
  MemoryKnowledgeBase,
  PostgresKnowledgeBase,
  watchHelpCenter,
  type HelpCenterWatch,
  type KnowledgeBase,
} from '@repo/knowledge';
import type pg from 'pg';
import type { HelpCenterSearch } from '../tools/search-help-center.js';

/** The help center: a knowledge base (KB_SCHEMA in PostgreSQL, else memory) and its folder (KB_DIR). */
export interface HelpCenterSettings {
  /** KB_DIR: a folder of markdown articles loaded at start and watched; unset, none. */
  dir?: string;
  /** KB_SCHEMA: the knowledge base's schema when sessions live in PostgreSQL (default `knowledge`). */
  schema?: string;
  /** Wait for the folder to be quiet this long before loading changes (default 250 ms). */
  debounceMs?: number;
}

export const DEFAULT_KB_SCHEMA = 'knowledge';

/**
 * The knowledge base the search_help_center tool and the /kb routes share. In PostgreSQL it is the
 * sessions' database, schema KB_SCHEMA (set up with the sessions'; both services on one database
 * and schema share one knowledge base); in memory otherwise. `start()` loads KB_DIR and watches it.
 */
export function openHelpCenter(options: {
  settings: HelpCenterSettings;
  /** The sessions' database, when they live in PostgreSQL: its pool, and the guard of its queries. */
  database?: { pool: pg.Pool; guard: <T>(step: () => Promise<T>) => Promise<T> };
  logger: Logger;
  /** Times each search (metrics). */
  timed: <T>(search: () => Promise<T>) => Promise<T>;
}) {
  const { settings, logger } = options;
  const kb: KnowledgeBase = options.database
    ? guarded(
        new PostgresKnowledgeBase({
          pool: options.database.pool,
          schema: settings.schema ?? DEFAULT_KB_SCHEMA,
        }),
        options.database.guard,
      )
    : new MemoryKnowledgeBase();
  const search: HelpCenterSearch = (query) => options.timed(() => kb.search(query));
  let watch: HelpCenterWatch | undefined;
  let closed = false;
  return {
    kb,
    search,
    /**
     * Loads KB_DIR (a broken file is named in one warn line and skipped) and watches it. A folder
     * that cannot be read is one error line: the service runs with the articles it has.
     */
    start: async () => {
      if (!settings.dir || watch || closed) return;
      try {
        watch = await watchHelpCenter(
          settings.dir,
          kb,
          logger.child({ component: 'help-center' }),
          {
            ...(settings.debounceMs !== undefined ? { debounceMs: settings.debounceMs } : {}),
          },
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

/** Every call through the sessions' database guard: 503 `database_unavailable` while it is away. */
function guarded(
  kb: KnowledgeBase,
  guard: <T>(step: () => Promise<T>) => Promise<T>,
): KnowledgeBase {
  return {
    upsert: (input, options) => guard(() => kb.upsert(input, options)),
    delete: (slug) => guard(() => kb.delete(slug)),
    get: (slug) => guard(() => kb.get(slug)),
    list: (page) => guard(() => kb.list(page)),
    search: (query, options) => guard(() => kb.search(query, options)),
  };
}

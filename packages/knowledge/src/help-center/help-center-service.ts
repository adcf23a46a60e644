import { NotReady, type Logger, type ReadinessCheck } from '@repo/http-kit';
import type pg from 'pg';
import type { KnowledgeBase } from '../store/knowledge-base.js';
import { MemoryKnowledgeBase } from '../store/memory-knowledge-base.js';
import { PostgresKnowledgeBase } from '../store/postgres-knowledge-base.js';
import { DEFAULT_KB_SCHEMA } from './knowledge-env.js';
import { watchHelpCenter, type HelpCenterWatch } from './watch-help-center.js';

/** A service's help center (KB_DIR, KB_SCHEMA). */
export interface HelpCenterSettings {
  /** KB_DIR: a folder of markdown articles loaded at start and watched; unset, none. */
  dir?: string | undefined;
  /** KB_SCHEMA: the knowledge base's schema with a database (default `knowledge`). */
  schema?: string | undefined;
  /** Wait for the folder to be quiet this long before loading changes (default 250 ms). */
  debounceMs?: number | undefined;
}

/** Runs a database step, turning "the database is away" into the service's own answer (503). */
export type DatabaseGuard = <T>(step: () => Promise<T>) => Promise<T>;

/** Every call of `kb` through `guard`. */
export function guardedKnowledgeBase(kb: KnowledgeBase, guard: DatabaseGuard): KnowledgeBase {
  return {
    upsert: (input, options) => guard(() => kb.upsert(input, options)),
    delete: (slug) => guard(() => kb.delete(slug)),
    get: (slug) => guard(() => kb.get(slug)),
    list: (page) => guard(() => kb.list(page)),
    search: (query, options) => guard(() => kb.search(query, options)),
    searchIfAny: (query, options) => guard(() => kb.searchIfAny(query, options)),
  };
}

/**
 * A service's knowledge base and its folder: in PostgreSQL (schema KB_SCHEMA, its tables made by
 * the service's set-up with knowledgeTablesMigration; each call through the service's `guard`)
 * when the service has a database, in memory otherwise. `start()` loads KB_DIR and watches it.
 */
export function openHelpCenter(options: {
  settings: HelpCenterSettings;
  database?: { pool: pg.Pool; guard?: DatabaseGuard } | undefined;
  logger: Logger;
}) {
  const { settings, logger, database } = options;
  const stored: KnowledgeBase = database
    ? new PostgresKnowledgeBase({
        pool: database.pool,
        schema: settings.schema ?? DEFAULT_KB_SCHEMA,
      })
    : new MemoryKnowledgeBase();
  const kb = database?.guard ? guardedKnowledgeBase(stored, database.guard) : stored;
  let watch: HelpCenterWatch | undefined;
  let closed = false;
  let state: 'loading' | 'loaded' | 'not_loaded' = 'loading';
  const { dir } = settings;
  return {
    kb,
    /**
     * Loads KB_DIR (a broken file is named in one warn line and skipped) and watches it. A folder
     * that cannot be read is one error line: the service runs with the articles it has.
     */
    start: async () => {
      if (!dir || watch || closed) return;
      try {
        watch = await watchHelpCenter(dir, kb, logger.child({ component: 'help-center' }), {
          ...(settings.debounceMs !== undefined ? { debounceMs: settings.debounceMs } : {}),
        });
        state = 'loaded';
      } catch (error) {
        state = 'not_loaded';
        logger.error({ err: error, dir }, 'help center folder not loaded');
      }
    },
    /**
     * With KB_DIR, `/readyz`'s `help_center`: not ready (`loading`) until start()'s first load
     * has ended, so that whoever waits for ready finds the folder's articles; then `loaded`, or
     * `not_loaded` (the folder unreadable or the database away, logged: the service serves with
     * the articles it has).
     */
    readiness: dir
      ? ({
          name: 'help_center',
          check: () => {
            if (state === 'loading') throw new NotReady('loading');
            return state;
          },
        } satisfies ReadinessCheck)
      : undefined,
    close: async () => {
      closed = true;
      await watch?.close();
    },
  };
}

export type HelpCenter = ReturnType<typeof openHelpCenter>;

import type { Logger } from '@repo/http-kit';
import { openHelpCenter, type HelpCenterSettings } from '@repo/knowledge';
import type pg from 'pg';
import type { HelpCenterSearch } from '../tools/search-help-center.js';

export type { HelpCenterSettings } from '@repo/knowledge';

/**
 * The knowledge base the search_help_center tool and the /kb routes share: in the sessions'
 * database (schema KB_SCHEMA, 503 while it is away) or in memory; `search` is timed.
 */
export function openAgentHelpCenter(options: {
  settings: HelpCenterSettings;
  database?: { pool: pg.Pool } | undefined;
  logger: Logger;
  /** Times each search (metrics). */
  timed: <T>(search: () => Promise<T>) => Promise<T>;
}) {
  const helpCenter = openHelpCenter(options);
  const search: HelpCenterSearch = (query) => options.timed(() => helpCenter.kb.search(query));
  return { ...helpCenter, search };
}

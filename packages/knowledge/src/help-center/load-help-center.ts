import type { Logger } from '@repo/http-kit';
import type { KnowledgeBase } from '../store/knowledge-base.js';
import { HelpCenterFolder, type HelpCenterLoad } from './help-center-folder.js';

/**
 * Makes `kb` hold the articles of the folder's `.md` files: new and changed ones written, unchanged
 * ones left as they are (same slug and content hash), articles no file holds deleted. A file that
 * cannot be read or parsed is named in one warn line and skipped; the rest load.
 */
export function loadHelpCenter(
  dir: string,
  kb: KnowledgeBase,
  logger: Logger,
): Promise<HelpCenterLoad> {
  return new HelpCenterFolder(dir, kb, logger).loadAll();
}

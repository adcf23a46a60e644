import { watch, type FSWatcher } from 'node:fs';
import type { Logger } from '@repo/http-kit';
import type { KnowledgeBase } from '../store/knowledge-base.js';
import { HelpCenterFolder, isArticleFile, type HelpCenterLoad } from './help-center-folder.js';

export interface HelpCenterWatch {
  /** The first load's result. */
  load: HelpCenterLoad;
  /** Stops watching, once the reload under way (if any) has finished. */
  close(): Promise<void>;
}

export interface WatchOptions {
  /** How long the folder must be quiet before the changed files are reloaded (editors write in bursts). */
  debounceMs?: number;
}

/**
 * Loads the folder (loadHelpCenter), then keeps `kb` in step with it: a file written is reloaded
 * and a file removed deletes its article, `debounceMs` after the folder's last change. Changes that
 * come during a load wait for it. A reload that fails for a reason not the file's (the database
 * away) is logged; the file is read again at its next change or the next start.
 */
export async function watchHelpCenter(
  dir: string,
  kb: KnowledgeBase,
  logger: Logger,
  options: WatchOptions = {},
): Promise<HelpCenterWatch> {
  const debounceMs = options.debounceMs ?? 250;
  const folder = new HelpCenterFolder(dir, kb, logger);
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let work = Promise.resolve();
  let loaded = false;

  const reloadFile = async (name: string, missing: string[]) => {
    try {
      if ((await folder.loadFile(name)) === 'missing') missing.push(name);
    } catch (error) {
      logger.error({ err: error, file: name }, 'help center reload failed');
    }
  };
  // Files gone are looked at after those written, so that a renamed file holds its slug again
  // before the old name's removal would delete the article.
  const reload = async () => {
    const names = [...changed].sort();
    changed.clear();
    const missing: string[] = [];
    for (const name of names) await reloadFile(name, missing);
    for (const name of missing) {
      await folder
        .removeFile(name)
        .catch((error: unknown) =>
          logger.error({ err: error, file: name }, 'help center reload failed'),
        );
    }
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      work = work.then(reload);
    }, debounceMs);
  };
  // Watching starts before the load, so that a change made while it runs is not missed.
  const watcher: FSWatcher = watch(dir, (_event, name) => {
    if (!name || !isArticleFile(name)) return;
    changed.add(name);
    if (loaded) schedule();
  });
  watcher.on('error', (error) => logger.error({ err: error, dir }, 'help center watch failed'));
  try {
    const load = await folder.loadAll();
    loaded = true;
    if (changed.size > 0) schedule();
    return {
      load,
      close: async () => {
        watcher.close();
        clearTimeout(timer);
        await work;
      },
    };
  } catch (error) {
    watcher.close();
    throw error;
  }
}

import { access, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HttpError, type Logger } from '@repo/http-kit';
import { ArticleTooLarge, InvalidArticle, TooManyArticles } from '../articles/knowledge-errors.js';
import type { KnowledgeBase, UpsertOutcome } from '../store/knowledge-base.js';
import { parseArticleFile } from './article-file.js';

/** What loading a file did. `missing`: it is not there (any more). */
export type FileOutcome = UpsertOutcome | 'skipped' | 'missing';

export interface HelpCenterLoad {
  /** The slug each loaded file holds, by file name. */
  files: Map<string, string>;
  created: number;
  replaced: number;
  unchanged: number;
  /** Files that could not be read or did not make an article (each named in one log line). */
  skipped: string[];
  /** Articles from files deleted because no file holds them any more (API articles stay). */
  deleted: string[];
}

/** A help center's articles: the folder's `.md` files (not its subfolders'; none starting with a dot). */
export const isArticleFile = (name: string) => name.endsWith('.md') && !name.startsWith('.');

const LIST_PAGE = 500;

/** Refusals of the file's article: the file is skipped, and the others load. */
const isArticleRefused = (error: unknown) =>
  error instanceof InvalidArticle ||
  error instanceof ArticleTooLarge ||
  error instanceof TooManyArticles;

/**
 * A folder of markdown articles kept in a knowledge base: which file holds which slug, so that a
 * file's change or removal reaches its article. Used by loadHelpCenter and watchHelpCenter.
 */
export class HelpCenterFolder {
  readonly files = new Map<string, string>();
  /** The files holding each slug: `files` read the other way, so a load is not quadratic. */
  private readonly holders = new Map<string, Set<string>>();

  constructor(
    readonly dir: string,
    private readonly kb: KnowledgeBase,
    private readonly logger: Logger,
  ) {}

  /**
   * Loads every article file, then deletes the articles no file holds. A folder with a file it had
   * to skip deletes nothing: that file may be the one holding an article (it is kept until the
   * file is fixed or removed).
   */
  async loadAll(): Promise<HelpCenterLoad> {
    const load: HelpCenterLoad = {
      files: this.files,
      created: 0,
      replaced: 0,
      unchanged: 0,
      skipped: [],
      deleted: [],
    };
    const names = (await readdir(this.dir)).filter(isArticleFile).sort();
    for (const name of names) {
      const outcome = await this.loadFile(name);
      if (outcome === 'skipped') load.skipped.push(name);
      else if (outcome !== 'missing') load[outcome] += 1;
    }
    if (load.skipped.length === 0) load.deleted = await this.deleteUnheld();
    this.logger.info(
      {
        dir: this.dir,
        created: load.created,
        replaced: load.replaced,
        unchanged: load.unchanged,
        skipped: load.skipped.length,
        deleted: load.deleted.length,
      },
      'help center loaded',
    );
    return load;
  }

  /** Loads one file into its article. A file not there is `missing`: see removeFile. */
  async loadFile(name: string): Promise<FileOutcome> {
    let text: string;
    try {
      text = await readFile(join(this.dir, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      return this.skip(name, error);
    }
    try {
      const article = parseArticleFile(text, name);
      const holder = await this.presentHolderOf(article.slug, name);
      if (holder)
        throw new InvalidArticle(`Its slug ${article.slug} is already ${holder}'s.`, [
          { path: 'slug', message: `already the slug of ${holder}` },
        ]);
      const { outcome } = await this.kb.upsert(article, { source: 'file' });
      const before = this.files.get(name);
      this.hold(name, article.slug);
      // The file now holds another slug: its old article goes.
      if (before !== undefined && before !== article.slug) await this.kb.delete(before);
      return outcome;
    } catch (error) {
      if (isArticleRefused(error)) return this.skip(name, error);
      throw error;
    }
  }

  /** The file is gone: so is its article, unless another file holds the same slug. */
  async removeFile(name: string): Promise<void> {
    const slug = this.files.get(name);
    this.release(name);
    if (slug === undefined || this.holderOf(slug, name)) return;
    if (await this.kb.delete(slug))
      this.logger.info({ file: name, slug }, 'help center article deleted');
  }

  /** The other file holding `slug`, if it is still there; one gone (a rename) gives it up. */
  private async presentHolderOf(slug: string, exceptFile: string): Promise<string | undefined> {
    const holder = this.holderOf(slug, exceptFile);
    if (holder === undefined) return undefined;
    const present = await access(join(this.dir, holder)).then(
      () => true,
      () => false,
    );
    if (present) return holder;
    this.release(holder);
    return undefined;
  }

  private holderOf(slug: string, exceptFile: string): string | undefined {
    for (const file of this.holders.get(slug) ?? []) if (file !== exceptFile) return file;
    return undefined;
  }

  private hold(name: string, slug: string): void {
    this.release(name);
    this.files.set(name, slug);
    const holders = this.holders.get(slug) ?? new Set<string>();
    this.holders.set(slug, holders.add(name));
  }

  private release(name: string): void {
    const slug = this.files.get(name);
    if (slug === undefined) return;
    this.files.delete(name);
    const holders = this.holders.get(slug);
    holders?.delete(name);
    if (holders?.size === 0) this.holders.delete(slug);
  }

  private skip(name: string, error: unknown): 'skipped' {
    const problem = error instanceof HttpError ? error.code : 'unreadable';
    this.logger.warn(
      { file: name, problem, reason: (error as Error).message },
      'help center file skipped',
    );
    return 'skipped';
  }

  private async deleteUnheld(): Promise<string[]> {
    const held = new Set(this.files.values());
    const unheld: string[] = [];
    let after: string | undefined;
    do {
      const page = await this.kb.list({ limit: LIST_PAGE, ...(after ? { after } : {}) });
      // Only the folder's own: articles written through the API stay.
      unheld.push(
        ...page.articles.filter((a) => a.source === 'file' && !held.has(a.slug)).map((a) => a.slug),
      );
      after = page.next;
    } while (after);
    for (const slug of unheld) await this.kb.delete(slug);
    return unheld;
  }
}

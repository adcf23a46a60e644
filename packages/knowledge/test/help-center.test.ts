import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadHelpCenter } from '../src/help-center/load-help-center.js';
import { watchHelpCenter, type HelpCenterWatch } from '../src/help-center/watch-help-center.js';
import type { KnowledgeBase } from '../src/store/knowledge-base.js';
import { MemoryKnowledgeBase } from '../src/store/memory-knowledge-base.js';
import { PostgresKnowledgeBase } from '../src/store/postgres-knowledge-base.js';
import { ticking, type OpenKnowledgeBase } from './knowledge-base-contract.js';
import { capturedLogger, sampleFolder, until } from './help-center-support.js';
import { knowledgeSchema } from './postgres-support.js';

let db: Awaited<ReturnType<typeof knowledgeSchema>>;

beforeAll(async () => {
  db = await knowledgeSchema('help_center');
});

afterAll(async () => {
  await db.drop();
});

const stores: Array<[string, OpenKnowledgeBase]> = [
  ['memory', async (options) => new MemoryKnowledgeBase(options)],
  [
    'PostgreSQL',
    async (options) => {
      await db.empty();
      return new PostgresKnowledgeBase({ pool: db.pool, schema: db.schema, ...options });
    },
  ],
];

const slugs = async (kb: KnowledgeBase) =>
  (await kb.list({ limit: 100 })).articles.map((article) => article.slug);

describe.each(stores)('help center into the %s store', (_name, open) => {
  let folder: ReturnType<typeof sampleFolder>;
  let watching: HelpCenterWatch | undefined;

  beforeEach(() => {
    folder = sampleFolder();
  });

  afterEach(async () => {
    await watching?.close();
    watching = undefined;
    folder.remove();
  });

  it('when the sample folder is loaded, then its 20 articles are there, with their front matter', async () => {
    const kb = await open();
    const { logger } = capturedLogger();
    const load = await loadHelpCenter(folder.dir, kb, logger);
    expect(load).toMatchObject({
      created: 20,
      replaced: 0,
      unchanged: 0,
      skipped: [],
      deleted: [],
    });
    expect(await slugs(kb)).toHaveLength(20);
    expect(await kb.get('rueckerstattung')).toMatchObject({
      title: 'Rückgabe und Erstattungen',
      language: 'de',
      tags: ['billing', 'refunds'],
    });
    expect((await kb.get('refund-policy'))?.body.startsWith('# Refund policy')).toBe(true);
  });

  it('when two files name the same slug, then the second is skipped and takes the article once the first is gone', async () => {
    const copy = readFileSync(join(folder.dir, 'refund-policy.md'), 'utf8').replace(
      '# Refund policy',
      '# Refund policy (copy)',
    );
    writeFileSync(join(folder.dir, 'zz-refund-copy.md'), copy);
    const kb = await open();
    const { logger, lines } = capturedLogger();
    const load = await loadHelpCenter(folder.dir, kb, logger);
    expect(load.skipped).toEqual(['zz-refund-copy.md']);
    expect(lines.filter((line) => line.file === 'zz-refund-copy.md')).toEqual([
      expect.objectContaining({ problem: 'invalid_article' }),
    ]);
    expect((await kb.get('refund-policy'))?.body.startsWith('# Refund policy\n')).toBe(true);

    // The first file gone, the copy is no longer refused: it now holds the slug.
    rmSync(join(folder.dir, 'refund-policy.md'));
    const reload = await loadHelpCenter(folder.dir, kb, logger);
    expect(reload.skipped).toEqual([]);
    expect((await kb.get('refund-policy'))?.body.startsWith('# Refund policy (copy)')).toBe(true);
  });

  it('when a file is broken, then it is named in exactly one log line and the others load', async () => {
    writeFileSync(join(folder.dir, 'broken-article.md'), '---\ntitle: [unclosed\n---\n\nText.');
    writeFileSync(join(folder.dir, 'no-front-matter.md'), 'Just text.');
    const kb = await open();
    const { logger, lines } = capturedLogger();
    const load = await loadHelpCenter(folder.dir, kb, logger);
    expect(load.skipped).toEqual(['broken-article.md', 'no-front-matter.md']);
    expect(await slugs(kb)).toHaveLength(20);
    const naming = (file: string) => lines.filter((line) => JSON.stringify(line).includes(file));
    expect(naming('broken-article.md')).toEqual([
      expect.objectContaining({ level: 40, file: 'broken-article.md', problem: 'invalid_article' }),
    ]);
    expect(naming('no-front-matter.md')).toHaveLength(1);
  });

  it('when unchanged files are loaded again, then nothing is written', async () => {
    const kb = await open({ now: ticking() });
    const { logger } = capturedLogger();
    await loadHelpCenter(folder.dir, kb, logger);
    const before = await kb.list({ limit: 100 });
    const again = await loadHelpCenter(folder.dir, kb, logger);
    expect(again).toMatchObject({ created: 0, replaced: 0, unchanged: 20, deleted: [] });
    expect(await kb.list({ limit: 100 })).toEqual(before);
  });

  it('when a file was removed between loads, then its article is deleted; not while another file is broken', async () => {
    const kb = await open();
    const { logger } = capturedLogger();
    await loadHelpCenter(folder.dir, kb, logger);
    rmSync(join(folder.dir, 'opening-hours.md'));
    writeFileSync(join(folder.dir, 'broken.md'), 'no front matter');
    expect((await loadHelpCenter(folder.dir, kb, logger)).deleted).toEqual([]);
    expect(await kb.get('opening-hours')).toBeDefined();
    rmSync(join(folder.dir, 'broken.md'));
    expect((await loadHelpCenter(folder.dir, kb, logger)).deleted).toEqual(['opening-hours']);
    expect(await kb.get('opening-hours')).toBeUndefined();
  });

  it('when an article was written through the API, then a folder load keeps it and marks its files’ articles as from a file', async () => {
    const kb = await open();
    const { logger } = capturedLogger();
    await kb.upsert({ slug: 'gift-cards', title: 'Gift cards', body: 'Valid for 3 years.' });
    const load = await loadHelpCenter(folder.dir, kb, logger);
    expect(load.deleted).toEqual([]);
    expect(await kb.get('gift-cards')).toMatchObject({ source: 'api' });
    expect(await kb.get('refund-policy')).toMatchObject({ source: 'file' });
    rmSync(join(folder.dir, 'opening-hours.md'));
    expect((await loadHelpCenter(folder.dir, kb, logger)).deleted).toEqual(['opening-hours']);
    expect(await kb.get('gift-cards')).toBeDefined();
  });

  it('when two files claim one slug, then the second is skipped and the first keeps it', async () => {
    writeFileSync(
      join(folder.dir, 'zz-copy.md'),
      readFileSync(join(folder.dir, 'refund-policy.md'), 'utf8').replace('30 days', '99 days'),
    );
    const kb = await open();
    const { logger, lines } = capturedLogger();
    const load = await loadHelpCenter(folder.dir, kb, logger);
    expect(load.skipped).toEqual(['zz-copy.md']);
    expect((await kb.get('refund-policy'))?.body).toContain('30 days');
    expect(lines.filter((line) => line['file'] === 'zz-copy.md')).toHaveLength(1);
  });

  it('when a watched file changes, then its article is reloaded; a removed one is deleted; a broken one keeps its article', async () => {
    const kb = await open();
    const { logger, lines } = capturedLogger();
    watching = await watchHelpCenter(folder.dir, kb, logger, { debounceMs: 50 });
    expect(watching.load.created).toBe(20);

    const refundFile = join(folder.dir, 'refund-policy.md');
    writeFileSync(
      refundFile,
      readFileSync(refundFile, 'utf8').replace('within **30 days**', 'within **45 days**'),
    );
    await until(async () => (await kb.get('refund-policy'))!.body.includes('45 days'));
    expect((await kb.search('refund window'))[0]?.passage).toContain('45 days');

    rmSync(join(folder.dir, 'opening-hours.md'));
    await until(async () => (await kb.get('opening-hours')) === undefined);

    writeFileSync(join(folder.dir, 'shipping-times.md'), '---\ntitle: [\n---\nBroken.');
    await until(async () => lines.some((line) => line['file'] === 'shipping-times.md'));
    expect((await kb.get('shipping-times'))?.title).toBe('Shipping times and costs');
  });

  it('when a watched file’s front matter takes another slug, then the old article goes and the new one comes', async () => {
    const kb = await open();
    const { logger } = capturedLogger();
    watching = await watchHelpCenter(folder.dir, kb, logger, { debounceMs: 50 });
    const file = join(folder.dir, 'opening-hours.md');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('slug: opening-hours', 'slug: support-hours'),
    );
    // The new article is written before the old one is deleted.
    await until(async () => (await kb.get('opening-hours')) === undefined);
    expect(await kb.get('support-hours')).toBeDefined();
    expect(await slugs(kb)).toHaveLength(20);
  });

  it('when a watched file is renamed and a new one is added, then the articles follow', async () => {
    const kb = await open();
    const deleted: string[] = [];
    const recording: KnowledgeBase = {
      upsert: (input) => kb.upsert(input),
      delete: (slug) => (deleted.push(slug), kb.delete(slug)),
      get: (slug) => kb.get(slug),
      list: (page) => kb.list(page),
      search: (query, options) => kb.search(query, options),
      searchIfAny: (query, options) => kb.searchIfAny(query, options),
    };
    const { logger } = capturedLogger();
    watching = await watchHelpCenter(folder.dir, recording, logger, { debounceMs: 50 });
    // Its front matter names its slug: the rename keeps the article.
    renameSync(join(folder.dir, 'hub-setup.md'), join(folder.dir, 'setting-up-the-hub.md'));
    writeFileSync(
      join(folder.dir, 'gift-cards.md'),
      '---\ntitle: Gift cards\ntags: [billing]\n---\n\nGift cards are valid for 3 years.',
    );
    await until(async () => (await kb.get('gift-cards')) !== undefined);
    await watching.close();
    expect(await kb.get('hub-setup')).toBeDefined();
    // Not even for a moment: the renamed file is read before the old name's removal is looked at.
    expect(deleted).toEqual([]);
    expect(await slugs(kb)).toHaveLength(21);
    expect(watching.load.files.get('setting-up-the-hub.md')).toBe('hub-setup');
  });
});
